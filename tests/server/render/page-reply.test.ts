// `reply.page`: how a page is sent. A signed-in page carries its idle times, counted from the person's last action (a
// warning a minute before the idle limit, a check at the limit); any other page carries none. A page that asks again
// by itself says when, as a load that is no activity. What a page shows is written into the kept HTML as typed, never
// mistaken for one of its slots.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { happyUpstream, sendJson } from "#harness/fake-upstream.ts";
import { PortalClient } from "#harness/portal-client.ts";
import { accounts, DEMO_PASSWORD, signIn } from "#harness/sign-in.ts";
import { CHECKING_RETRY_SECONDS, CHECKS } from "#server/loaders/section.tsx";
import { BY_ITSELF, sessionCookieName } from "#server/session/plugin.ts";
import { clockedPortal, IDLE_MINUTES, MINUTE } from "#tests/support/clocked-portal.ts";
import { portalOnFake, portalsOnFakeForFile } from "#tests/support/portal-on-fake.ts";
import { layoutTexts } from "#web/texts/layout.ts";

const clocked = clockedPortal();

/** A link followed from another site: a top-level navigation, which carries only the browser's `Lax` cookies. */
const linkFromAnotherSite = {
  "sec-fetch-site": "cross-site",
  "sec-fetch-mode": "navigate",
  "sec-fetch-dest": "document",
};
const laxCookiesOf = (client: PortalClient) =>
  [...client.cookies]
    .filter(([name]) => name === sessionCookieName(true))
    .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
    .join("; ");

/** The idle times a page carries: the warning's delay, the check's, and where the check asks. */
function idleTimesOf(html: string) {
  return {
    warnAfter: /step-start (\d+)s forwards/.exec(html)?.[1],
    checkIn: /<body data-idle-check="(\d+)"/.exec(html)?.[1],
    refresh: /<meta http-equiv="refresh" content="([^"]+)"\/>/.exec(html)?.[1],
  };
}

describe("the idle times of a page", () => {
  it("a signed-in page carries the warning, shown a minute before the idle limit, and a check at the limit", async () => {
    const alice = await signIn(clocked.portal.app, accounts.alice, clocked.portal.code);
    const page = await alice.get("/client/inbox");
    assert.equal(page.status, 200);
    const checkIn = IDLE_MINUTES * 60 + 2;
    assert.ok(
      page.text.includes(
        `<noscript><meta http-equiv="refresh" content="${checkIn}; url=/session/idle?return=%2Fclient%2Finbox"/></noscript>`,
      ),
      "without scripts, the page asks by itself at the limit",
    );
    assert.match(
      page.text,
      new RegExp(`<body data-idle-check="${checkIn}" data-session="[\\w-]{22}">`),
      "the warning's script reads the same time, and which session the page was shown for",
    );
    assert.equal(page.headers.refresh, undefined, "a Refresh header would reload the page after a script's 'Stay'");
    assert.ok(page.text.includes(layoutTexts.idleWarning), "the warning's text");
    assert.match(page.text, /<form class="idle-stay" action="\/session\/stay" method="post">/);
    assert.match(page.text, /<input type="hidden" name="return" value="\/client\/inbox"\/>/);
    assert.ok(page.text.includes(`>${layoutTexts.staySignedIn}</button>`));
    const nonce = /style-src 'self' 'nonce-([^']+)'/.exec(String(page.headers["content-security-policy"]))?.[1];
    assert.ok(nonce, "the policy admits the page's own style element by its nonce");
    assert.ok(page.text.includes(`<style nonce="${nonce}">`), "the style element carries this answer's nonce");
    assert.match(
      page.text,
      new RegExp(`step-start ${IDLE_MINUTES * 60 - 60}s forwards`),
      "shown 60 s before the limit",
    );

    clocked.now += 10 * MINUTE;
    const later = await alice.get("/client/home");
    assert.match(later.text, new RegExp(`step-start ${IDLE_MINUTES * 60 - 60}s forwards`), "each page counts anew");
  });

  it("a page without a session carries neither the warning nor a check", async () => {
    const page = await new PortalClient(clocked.portal.app).get("/");
    assert.equal(page.headers.refresh, undefined);
    assert.ok(!page.text.includes("idle-check") && !page.text.includes("<noscript>"));
    assert.ok(!page.text.includes(layoutTexts.idleWarning));
    assert.ok(!page.text.includes("<style"));
  });

  it("the checking page keeps its own short Refresh", async () => {
    const alice = await signIn(clocked.portal.app, accounts.alice, clocked.portal.code);
    clocked.now += 6 * MINUTE; // cached permissions are stale; the upstream is asked again
    const page = await alice.get("/client/home");
    if (page.status === 503) assert.equal(page.headers.refresh, "5; url=/client/home?by-itself");
    else assert.equal(page.headers.refresh, undefined);
  });

  it("they count from the person's last action: a page the browser loads by itself 10 minutes later warns 10 minutes sooner", async () => {
    const alice = await signIn(clocked.portal.app, accounts.alice, clocked.portal.code);
    clocked.now += 10 * MINUTE;
    const page = await alice.get(`/client/inbox?${BY_ITSELF}`);
    assert.equal(page.status, 200);
    const left = (IDLE_MINUTES - 10) * 60;
    assert.deepEqual(idleTimesOf(page.text), {
      warnAfter: String(left - 60),
      checkIn: String(left + 2),
      refresh: `${left + 2}; url=/session/idle?return=%2Fclient%2Finbox`,
    });
  });

  it("a page a link from another site opened counts them from the person's last action: the link restarts nothing", async () => {
    const alice = await signIn(clocked.portal.app, accounts.alice, clocked.portal.code);
    clocked.now += 10 * MINUTE;
    const page = await alice.get("/client/inbox", { ...linkFromAnotherSite, cookie: laxCookiesOf(alice) });
    assert.equal(page.status, 200);
    const left = (IDLE_MINUTES - 10) * 60;
    assert.equal(idleTimesOf(page.text).warnAfter, String(left - 60), "warned 10 minutes sooner");
  });

  it("a page within the last minute warns at once, never after a negative delay", async () => {
    const alice = await signIn(clocked.portal.app, accounts.alice, clocked.portal.code);
    clocked.now += (IDLE_MINUTES - 0.5) * MINUTE;
    const page = await alice.get(`/client/inbox?${BY_ITSELF}`);
    assert.equal(page.status, 200);
    assert.deepEqual(idleTimesOf(page.text), {
      warnAfter: "0",
      checkIn: "32",
      refresh: "32; url=/session/idle?return=%2Fclient%2Finbox",
    });
  });

  it("a session waiting for its code carries none: its idle clock is not yet a signed-in one", async () => {
    const pending = new PortalClient(clocked.portal.app);
    const login = await pending.post("/api/auth/client", {
      shortname: "ACME",
      username: "alice",
      password: DEMO_PASSWORD,
    });
    assert.equal(login.status, 200, login.text);
    const mfa = await pending.get("/mfa");
    assert.equal(mfa.status, 200);
    assert.deepEqual(idleTimesOf(mfa.text), { warnAfter: undefined, checkIn: undefined, refresh: undefined });
    assert.ok(!mfa.text.includes(layoutTexts.idleWarning));
  });
});

describe("a page that asks again by itself", () => {
  it("says when in Refresh and Retry-After, to the same address marked as the browser's own load", async () => {
    const answer = happyUpstream();
    const fake = await portalOnFake((call, response) =>
      call.path.endsWith("/user-info") ? sendJson(response, 500, {}) : answer(call, response),
    );
    try {
      const alice = await signIn(fake.app, accounts.alice, fake.code);
      const checking = await alice.get("/client/vip/dashboard?tab=2");
      assert.equal(checking.status, 503);
      const again = `/client/vip/dashboard?tab=2&${CHECKS}=1&${BY_ITSELF}`;
      assert.equal(checking.headers.refresh, `${CHECKING_RETRY_SECONDS}; url=${again}`);
      assert.equal(checking.headers["retry-after"], String(CHECKING_RETRY_SECONDS));
      assert.match(String(checking.headers["content-type"]), /^text\/html; charset=utf-8/);
    } finally {
      await fake.close();
    }
  });

  it("a page that does not ask again has neither header", async () => {
    const alice = await signIn(clocked.portal.app, accounts.alice, clocked.portal.code);
    const page = await alice.get("/client/inbox");
    assert.deepEqual([page.status, page.headers.refresh, page.headers["retry-after"]], [200, undefined, undefined]);
  });
});

describe("a page's compression (docs/decisions.md, BREACH considered)", () => {
  const page = (headers: Record<string, string>) =>
    clocked.portal.app.inject({ method: "GET", url: "/", headers: { "accept-encoding": "br, gzip", ...headers } });

  it("is compressed for the portal's own requests and the person's, and reads back as the same page", async () => {
    const plain = await page({ "accept-encoding": "identity" });
    for (const site of ["same-origin", "none"]) {
      const answer = await page({ "sec-fetch-site": site });
      assert.equal(answer.headers["content-encoding"], "br", site);
      assert.match(String(answer.headers.vary), /accept-encoding/i, site);
      const html = brotliDecompressSync(answer.rawPayload).toString();
      assert.ok(answer.rawPayload.length < html.length / 2, `${site}: ${answer.rawPayload.length} of ${html.length}`);
      assert.equal(html.replace(/nonce="[^"]+"/g, ""), plain.body.replace(/nonce="[^"]+"/g, ""), site);
    }
    const gzip = await page({ "sec-fetch-site": "same-origin", "accept-encoding": "gzip" });
    assert.equal(gzip.headers["content-encoding"], "gzip");
    assert.match(gunzipSync(gzip.rawPayload).toString(), /^<!DOCTYPE html>/);
  });

  it("is never compressed for a page a link from another site opened, though it is the person's own page", async () => {
    const alice = await signIn(clocked.portal.app, accounts.alice, clocked.portal.code);
    const answer = await alice.get("/client/home", {
      ...linkFromAnotherSite,
      cookie: laxCookiesOf(alice),
      "accept-encoding": "br, gzip",
    });
    assert.equal(answer.status, 200);
    assert.match(answer.text, /alice/, "the signed-in page");
    assert.equal(answer.headers["content-encoding"], undefined);
  });

  it("is never compressed for a request another site started, or one whose browser does not say", async () => {
    const asked: Record<string, string>[] = [{ "sec-fetch-site": "cross-site" }, { "sec-fetch-site": "same-site" }, {}];
    for (const headers of asked) {
      const answer = await page(headers);
      assert.equal(answer.statusCode, 200);
      assert.equal(answer.headers["content-encoding"], undefined, JSON.stringify(headers));
      assert.match(answer.body, /^<!DOCTYPE html>/);
    }
  });
});

/** A portal on a fake upstream, closed after the file's tests. */
const onFake = portalsOnFakeForFile();

describe("a rendered page", () => {
  it("a path that spells a slot of the kept HTML shows as typed, never as the answer's nonce", async () => {
    const { app, code } = await onFake();
    const client = await signIn(app, accounts.alice, code);
    for (const slot of ["nonce-slot-4c1e9b7d", "idle-slot-4c1e9b7d"]) {
      const answer = await client.get(`/client/${slot}`);
      const nonce = /'nonce-([^']+)'/.exec(String(answer.headers["content-security-policy"]))?.[1];
      assert.ok(nonce);
      assert.ok(!answer.text.includes(`/client/${nonce}`), "the nonce is not written into the address");
    }
    const signedOut = new PortalClient(app);
    const login = await signedOut.get("/?return=/client/nonce-slot-4c1e9b7d");
    const nonce = /'nonce-([^']+)'/.exec(String(login.headers["content-security-policy"]))?.[1];
    assert.ok(nonce && !login.text.includes(`/client/${nonce}`));
  });
});
