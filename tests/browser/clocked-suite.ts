// A browser suite whose time the test moves on instead of waiting for it: the portal's clock (its `now` option) and
// each page's (Playwright's clock, installed before the page loads) run with real time, and `pass` moves both on.
import { setTimeout as delay } from "node:timers/promises";
import type { BrowserContext, BrowserContextOptions, Page, Request } from "playwright-core";
import type { Account } from "#harness/sign-in.ts";
import { type BrowserSuite, browserSuite, pageOf, signedInState } from "#tests/browser/steps.ts";
import type { PortalOptions } from "#tests/support/portal.ts";

export type ClockedBrowserSuite = Omit<BrowserSuite, "signedInPage" | "ownSessionPage"> & {
  /**
   * A page in a fresh context signed in as `account` (over HTTP, as the islands do), on its section's home page: a
   * session of its own for each page, since time passes in this suite and ends sessions.
   */
  signedInPage(account: Account, options?: BrowserContextOptions): Promise<Page>;
  /** The portal's time, in ms: the real time plus all the time passed so far. Each page's clock shows the same. */
  now(): number;
  /**
   * Lets `ms` pass on the portal's clock and on the clock of the page's browser context (all its tabs): each timer due
   * meanwhile fires once, as after a laptop's lid was closed that long. Before and after, waits until the tabs'
   * requests (a page's load, the fetches and navigations its timers started) have finished.
   */
  pass(page: Page, ms: number): Promise<void>;
  /** `pass` in steps of `stepMs` until `done` holds (checked before each step), at most `limitMs` in all. */
  passUntil(page: Page, done: () => boolean, options: { stepMs: number; limitMs: number; what: string }): Promise<void>;
};

/** Called inside `describe`, as `browserSuite`; the portal's own `now` option is replaced by the suite's clock. */
export function clockedBrowserSuite(
  portalOptions: Omit<PortalOptions, "now"> = {},
  pageDefaults: BrowserContextOptions = {},
): ClockedBrowserSuite {
  let passed = 0;
  const now = () => Date.now() + passed;
  const suite = browserSuite({ ...portalOptions, now }, pageDefaults);
  const inFlight = new WeakMap<BrowserContext, Set<Request>>();

  /** Until no request of the context has been in flight for a few polls in a row (a timer's fetch starts late). */
  async function settled(context: BrowserContext): Promise<void> {
    const pending = inFlight.get(context);
    if (!pending) throw new Error("a page of this clocked suite (suite.newPage) was expected");
    const deadline = Date.now() + 15_000;
    for (let quiet = 0; quiet < 3; ) {
      await delay(25);
      quiet = pending.size === 0 ? quiet + 1 : 0;
      if (Date.now() > deadline)
        throw new Error(`requests still in flight: ${[...pending].map((request) => request.url()).join(", ")}`);
    }
  }

  /** Moves the clocks on, then waits until the tabs' requests have finished. */
  const forward = async (page: Page, ms: number) => {
    passed += ms;
    await page.context().clock.fastForward(ms);
    await settled(page.context());
  };
  const pass = async (page: Page, ms: number) => {
    await settled(page.context());
    await forward(page, ms);
  };

  const clocked: ClockedBrowserSuite = {
    get portal() {
      return suite.portal;
    },
    now,
    async signedInPage(account, options = {}) {
      return pageOf(clocked, account, await signedInState(suite.portal, account), options);
    },
    async newPage(options = {}) {
      const page = await suite.newPage(options);
      const context = page.context();
      const pending = new Set<Request>();
      context.on("request", (request) => pending.add(request));
      context.on("requestfinished", (request) => pending.delete(request));
      context.on("requestfailed", (request) => pending.delete(request));
      inFlight.set(context, pending);
      await context.clock.install({ time: now() });
      return page;
    },
    pass,
    async passUntil(page, done, { stepMs, limitMs, what }) {
      for (let total = 0; !done(); total += stepMs) {
        if (total >= limitMs) throw new Error(`${what}: not after ${limitMs} ms`);
        // A step after the first begins where the one before settled: nothing but `done` ran in between.
        await (total === 0 ? pass(page, stepMs) : forward(page, stepMs));
      }
    },
  };
  return clocked;
}
