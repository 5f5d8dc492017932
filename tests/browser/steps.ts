// What a person does again and again in the browser tests: open the login page, sign in, read the mail, enter the code.
import assert from "node:assert/strict";
import { after, before } from "node:test";
import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { type PortalClient, parseSetCookie } from "#harness/portal-client.ts";
import { type Account, DEMO_PASSWORD, signIn as signInOverHttp } from "#harness/sign-in.ts";
import { latestMail, launchBrowser, sandboxPost, startPortalInProcess } from "#tests/browser/harness.ts";
import type { PortalOptions, RunningPortal } from "#tests/support/portal.ts";
import { resetLinkPath } from "#tests/support/reset-link.ts";
import { scaled } from "#tests/support/waiting.ts";

export type Login = { site: "client" | "vendor"; shortName?: string; userName: string; password: string };

/**
 * Waits until the page's islands have hydrated: the client code then owns the forms. The login page's island also
 * says when its first effects have run (`data-ready`: the remembered site chosen, the focus placed).
 */
export async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const island = document.querySelector("[data-island]");
    if (island === null || !Object.keys(island).some((key) => key.startsWith("__reactContainer"))) return false;
    const login = island.querySelector(".login-box");
    return !login || island.getAttribute("data-island") !== "login" || login.hasAttribute("data-ready");
  });
}

export async function openLogin(page: Page, url: string, path = "/"): Promise<void> {
  await page.goto(`${url}${path}`);
  await hydrated(page);
}

/** Fills the login form of the login's site (choosing its tab) and submits it. */
export async function submitLogin(page: Page, login: Login): Promise<void> {
  if (login.site === "vendor") await page.getByRole("tab", { name: "VENDOR LOGIN" }).click();
  else await page.getByRole("tab", { name: "CLIENT LOGIN" }).click();
  if (login.site === "client") await page.getByLabel("Company Short Name").fill(login.shortName ?? "");
  await page.getByLabel("User ID").fill(login.userName);
  await page.getByLabel("Password", { exact: true }).fill(login.password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
}

/**
 * Waits for the sign-in page a sign-out leads to (`/?signed-out`). The page drops `?signed-out` from its address as it
 * wakes, maybe before the wait begins: either address is that page.
 */
export async function signedOutAt(page: Page, url: string): Promise<void> {
  await page.waitForURL((address) => address.href === `${url}/?signed-out` || address.href === `${url}/`);
}

/** The id of the newest mail to an address, or 0 when it has none yet. */
export async function lastMailId(sandboxUrl: string, to: string): Promise<number> {
  try {
    return (await latestMail(sandboxUrl, to)).id;
  } catch {
    return 0;
  }
}

/** Waits for a mail newer than `afterId` and returns its body. */
export async function nextMail(sandboxUrl: string, to: string, afterId: number, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const mail = await latestMail(sandboxUrl, to);
      if (mail.id > afterId) return mail.body;
    } catch {
      // no mail yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no new mail to ${to} after #${afterId}`);
}

export async function nextCode(sandboxUrl: string, to: string, afterId: number): Promise<string> {
  const body = await nextMail(sandboxUrl, to, afterId);
  const code = /\b(\d{6})\b/.exec(body)?.[1];
  if (!code) throw new Error(`no code in the mail to ${to}: ${body}`);
  return code;
}

/** Enters the newest code sent after `afterId` into the multi-factor step and submits it with Enter. */
export async function enterCode(page: Page, sandboxUrl: string, email: string, afterId: number): Promise<void> {
  const code = await nextCode(sandboxUrl, email, afterId);
  await page.getByLabel("Code").fill(code);
  await page.getByLabel("Code").press("Enter");
}

/**
 * Signs in up to the multi-factor step and returns the code mailed for it, entering nothing: the caller decides how
 * the code is typed, or what happens before it is.
 */
export async function reachCode(
  page: Page,
  url: string,
  sandboxUrl: string,
  login: Login,
  email: string,
): Promise<string> {
  const before = await lastMailId(sandboxUrl, email);
  await openLogin(page, url);
  await submitLogin(page, login);
  await page.getByRole("heading", { name: "Verify This Device" }).waitFor();
  return nextCode(sandboxUrl, email, before);
}

/** A full sign-in through the multi-factor step by code from the mail. */
export async function signIn(page: Page, url: string, sandboxUrl: string, login: Login, email: string): Promise<void> {
  const code = await reachCode(page, url, sandboxUrl, login, email);
  await page.getByLabel("Code").fill(code);
  await page.getByLabel("Code").press("Enter");
}

/** The login of one of the sandbox's seed accounts (harness/sign-in.ts), with its password unless another is given. */
function loginOf(account: Account, password = DEMO_PASSWORD): Login {
  return account.site === "client"
    ? { site: "client", shortName: account.shortname, userName: account.username, password }
    : { site: "vendor", userName: account.username, password };
}

/** `signIn` as one of the sandbox's seed accounts (harness/sign-in.ts), with its password unless another is given. */
export function signInAs(page: Page, portal: RunningPortal, account: Account, password = DEMO_PASSWORD): Promise<void> {
  return signIn(page, portal.url, portal.sandboxUrl, loginOf(account, password), account.email);
}

/**
 * Lands on the login page with "Your session has expired. Please Login again" (requirements 4.5): the account's login
 * is accepted, its token revoked upstream while the MFA step waits, then its code submitted.
 */
export async function expireWhileVerifying(page: Page, portal: RunningPortal, account: Account): Promise<void> {
  const code = await reachCode(page, portal.url, portal.sandboxUrl, loginOf(account), account.email);
  await sandboxPost(portal.sandboxUrl, "/sandbox/tokens/revoke", { site: account.site, username: account.username });
  await page.getByLabel("Code").fill(code);
  await page.getByRole("button", { name: "Submit Code" }).click();
  await page.getByRole("alert").filter({ hasText: "Your session has expired. Please Login again" }).waitFor();
  await hydrated(page);
}

/**
 * Opens the login page's reset panel on a page whose clock the test drives (the panel's alert comes on a timer), and
 * returns the texts of the alerts (dialogs) the page shows from then on, each accepted.
 */
export async function openResetPanel(page: Page, url: string): Promise<string[]> {
  await page.clock.install();
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.accept();
  });
  await openLogin(page, url);
  await page.getByRole("link", { name: "Reset Password" }).click();
  return dialogs;
}

/** Fills a form's New Password and Confirm Password (the change-password form, the reset page) and submits it. */
export async function setNewPassword(page: Page, button: string, next: string, confirm = next): Promise<void> {
  await page.getByLabel("New Password").fill(next);
  await page.getByLabel("Confirm Password").fill(confirm);
  await page.getByRole("button", { name: button }).click();
}

/** Opens the password-reset link of a sandbox mail on the test's portal, as a person clicks it in the mail. */
export async function openResetLink(page: Page, url: string, mailBody: string): Promise<void> {
  await page.goto(`${url}${resetLinkPath(mailBody)}`);
  await page.getByRole("heading", { name: "Choose a new password" }).waitFor();
}

/** The text of the page's alerts (error notes), joined. */
export async function alerts(page: Page): Promise<string> {
  return (await page.getByRole("alert").allInnerTexts()).join("\n");
}

/**
 * Collects the page's script errors and console errors (a hydration mismatch shows up here), leaving out the
 * browser's own line for each non-OK answer, which the tests provoke on purpose.
 */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    if (message.text().startsWith("Failed to load resource")) return;
    errors.push(message.text());
  });
  return errors;
}

/** The process's one chromium (a launch costs a second or more), at first use; the files run in one share it. */
let chromium: Promise<Browser> | undefined;
export function fileBrowser(): Promise<Browser> {
  chromium ??= launchBrowser();
  return chromium;
}
// Registered as this module loads, outside any describe: after all the tests of the process.
after(async () => {
  await chromium?.then(
    (browser) => browser.close(),
    () => undefined,
  );
});

type StorageState = Exclude<BrowserContextOptions["storageState"], string | undefined>;
type StoredCookie = StorageState["cookies"][number];

const sameSites: Record<string, StoredCookie["sameSite"]> = { strict: "Strict", lax: "Lax", none: "None" };

/** The cookies a browser at `url` keeps from the answers the client received: each one's last setting, as sent. */
function storageStateOf(client: PortalClient, url: string): StorageState {
  const kept = new Map<string, StoredCookie>();
  for (const header of client.answers.flatMap((answer) => answer.headers["set-cookie"] ?? [])) {
    const cookie = parseSetCookie(header);
    if (cookie.value === "" || cookie.maxAge === 0) {
      kept.delete(cookie.name);
      continue;
    }
    const expires = cookie.maxAge ?? (cookie.expires ? (cookie.expires.getTime() - Date.now()) / 1000 : undefined);
    kept.set(cookie.name, {
      name: cookie.name,
      value:
        header
          .slice(header.indexOf("=") + 1)
          .split(";")[0]
          ?.trim() ?? "",
      domain: new URL(url).hostname,
      path: cookie.path ?? "/",
      expires: expires === undefined ? -1 : Date.now() / 1000 + expires,
      httpOnly: cookie.httpOnly ?? false,
      secure: cookie.secure ?? false,
      sameSite: sameSites[cookie.sameSite?.toLowerCase() ?? "lax"] ?? "Lax",
    });
  }
  return { cookies: [...kept.values()], origins: [] };
}

/** A new session of `account` on the portal, signed in over HTTP as the islands do, as a browser would keep it. */
export async function signedInState(portal: RunningPortal, account: Account): Promise<StorageState> {
  return storageStateOf(await signInOverHttp(portal.url, account, portal.code), portal.url);
}

/** A page of `suite` in a fresh context holding `state`, on the account's section home page. */
export async function pageOf(
  suite: Pick<BrowserSuite, "newPage" | "portal">,
  account: Account,
  state: StorageState,
  options: BrowserContextOptions,
): Promise<Page> {
  const page = await suite.newPage({ ...options, storageState: state });
  await page.goto(`${suite.portal.url}/${account.site}/home`);
  return page;
}

export type BrowserSuite = {
  /** The portal and sandbox of this file; started before its first test. */
  readonly portal: RunningPortal;
  /** A page in a fresh browser context (its own cookies and storage), watched for script errors. */
  newPage(options?: BrowserContextOptions): Promise<Page>;
  /**
   * A page in a fresh browser context already signed in as `account`, on its section's home page. The account signs
   * in once per suite, over HTTP as the islands do (tests/browser/sign-in.test.ts signs in through the page), and
   * each such page starts from that session's cookies (Playwright's storageState). Only for pages that leave the
   * session as they found it: a test that signs out, changes a password or lets the session end signs in on its own.
   */
  signedInPage(account: Account, options?: BrowserContextOptions): Promise<Page>;
  /**
   * As `signedInPage`, on a session of its own signed in for this page alone (over HTTP too): for a page that signs
   * out, changes the password or has its session end, when the sign-in through the page is not what it tests.
   */
  ownSessionPage(account: Account, options?: BrowserContextOptions): Promise<Page>;
};

/**
 * One test file's portal, and contexts in the file's browser, started before its tests and closed after them; called
 * inside `describe`. After the tests, no page may have had a script or hydration error.
 */
export function browserSuite(
  portalOptions: PortalOptions = {},
  pageDefaults: BrowserContextOptions = {},
): BrowserSuite {
  let portal: RunningPortal | undefined;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  const errors: string[][] = [];
  const sessions = new Map<Account, Promise<StorageState>>();
  before(async () => {
    portal = await startPortalInProcess(portalOptions);
    browser = await fileBrowser();
  });
  after(async () => {
    // Everything is closed first, whatever the check finds: a failing check must never leave the file's process hanging.
    try {
      for (const context of contexts) await context.close();
      await portal?.close();
    } finally {
      assert.deepEqual(errors.flat(), [], "no script or hydration errors");
    }
  });
  const suite: BrowserSuite = {
    get portal() {
      if (!portal) throw new Error("the browser suite has not started");
      return portal;
    },
    async newPage(options = {}) {
      if (!browser) throw new Error("the browser suite has not started");
      const context = await browser.newContext({ ...pageDefaults, ...options });
      // Playwright's own waits (30 s for a navigation, none for an action) stretch with the suite's factor, as every
      // other deadline a test does not control: a busy machine waits longer, never fails.
      context.setDefaultTimeout(scaled(30_000));
      contexts.push(context);
      const page = await context.newPage();
      errors.push(watchErrors(page));
      return page;
    },
    async signedInPage(account, options = {}) {
      let session = sessions.get(account);
      if (!session) {
        session = signedInState(suite.portal, account);
        sessions.set(account, session);
      }
      return pageOf(suite, account, await session, options);
    },
    async ownSessionPage(account, options = {}) {
      return pageOf(suite, account, await signedInState(suite.portal, account), options);
    },
  };
  return suite;
}
