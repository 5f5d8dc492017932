// SECURITY.md item 6: every state-changing call needs the islands' header and this origin; nothing else reaches upstream.
// And a link from another site: it opens the signed-in person's page, and writes nothing (issue 31, item 2).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { happyUpstream } from "#harness/fake-upstream.ts";
import { PortalClient } from "#harness/portal-client.ts";
import { accounts, signIn } from "#harness/sign-in.ts";
import { END_SESSIONS_PATH, FORGET_DEVICES_PATH } from "#server/loaders/account-view.ts";
import { deviceCookieName } from "#server/security/device-cookie.ts";
import { sameSiteCookieName } from "#server/session/cookie-mac.ts";
import { sessionCookieName } from "#server/session/plugin.ts";
import { type PortalOnFake, portalOnFake, sessionsOnFake } from "#tests/support/portal-on-fake.ts";
import { assertRefusedPage } from "#tests/support/refused-page.ts";
import { recordOf, sidOf } from "#tests/support/session-record.ts";
import { signInUrl } from "#web/site.ts";
import { errorTexts } from "#web/texts/errors.ts";

const on = sessionsOnFake();

const json = (body: unknown) => JSON.stringify(body);
/** The same scheme and host, one port further. */
const otherPort = (url: string) => {
  const other = new URL(url);
  other.port = String(Number(other.port) + 1);
  return other.origin;
};

describe("CSRF (item 6)", () => {
  const calls: [string, string | undefined, "anyone" | "pending" | "signed-in"][] = [
    ["/api/auth/client", json({ shortname: "ACME", username: "alice", password: "pw" }), "anyone"],
    ["/api/auth/vendor", json({ username: "vera", password: "pw" }), "anyone"],
    ["/api/auth/client-token?uuid=abc", undefined, "anyone"],
    ["/api/auth/vendor-token?uuid=abc", undefined, "anyone"],
    ["/api/web/reset-pwd", json({ clientShortName: "", emailAddress: "vera@vendor.example" }), "anyone"],
    ["/api/web/client/mfa/generate", undefined, "pending"],
    ["/api/web/client/mfa/validate/123456", undefined, "pending"],
    ["/api/web/client/password/test", json({ userId: "alice", password: "pw" }), "signed-in"],
    ["/api/web/client/password/change", json({ password: "Strong-Password-2026!" }), "signed-in"],
  ];
  const cookieFor = (needs: string) => (needs === "pending" ? on.pendingCookie : on.signedInCookie);
  const send = (path: string, body: string | undefined, headers: Record<string, string>) =>
    new PortalClient(on.fake.url).raw(
      "POST",
      path,
      { ...(body ? { "content-type": "application/json" } : {}), ...headers },
      body,
    );

  it("6. CSRF: every state-changing API call without the islands' header, or from another site or origin, is 403 and calls nothing upstream", async () => {
    const refusals: [string, Record<string, string>][] = [
      ["no X-Portal-Request", {}],
      ["X-Portal-Request: 0", { "x-portal-request": "0" }],
      ["Sec-Fetch-Site: cross-site", { "x-portal-request": "1", "sec-fetch-site": "cross-site" }],
      ["Sec-Fetch-Site: same-site", { "x-portal-request": "1", "sec-fetch-site": "same-site" }],
      ["a foreign Origin", { "x-portal-request": "1", origin: "https://evil.example" }],
      ["Origin: null", { "x-portal-request": "1", origin: "null" }],
      ["a look-alike Origin", { "x-portal-request": "1", origin: `${on.fake.url}.evil.example` }],
      ["this host over another scheme", { "x-portal-request": "1", origin: on.fake.url.replace("http:", "https:") }],
      ["this host on another port", { "x-portal-request": "1", origin: otherPort(on.fake.url) }],
    ];
    for (const [path, body, needs] of calls) {
      for (const [what, headers] of refusals) {
        const answer = await send(path, body, { ...headers, cookie: cookieFor(needs) });
        assert.equal(answer.status, 403, `${path} with ${what}: ${answer.text}`);
        assert.deepEqual(answer.json(), { detail: errorTexts.accessDenied }, `${path} with ${what}: its one answer`);
      }
    }
    assert.deepEqual(on.fake.upstream.calls, []);
    for (const [path, body, needs] of calls) {
      const same = {
        "x-portal-request": "1",
        "sec-fetch-site": "same-origin",
        origin: on.fake.url,
        cookie: cookieFor(needs),
      };
      const answer = await send(path, body, same);
      assert.notEqual(answer.status, 403, `${path} from this origin is accepted`);
    }
    assert.ok(on.fake.upstream.calls.length >= calls.length, "the same calls from this origin do reach the upstream");
  });

  it("6. CSRF: sign out (a plain form) is refused from another site or origin, and the session stays", async () => {
    // A session of its own: a sign-in (as the test above makes) revokes the session it replaces.
    const cookie = (await signIn(on.fake.app, accounts.alice, on.fake.code)).cookieHeader;
    const form = { "content-type": "application/x-www-form-urlencoded", cookie };
    const foreign: Record<string, string>[] = [
      { "sec-fetch-site": "cross-site" },
      { origin: "https://evil.example" },
      { origin: "null" },
      { origin: on.fake.url.replace("http:", "https:") },
      { origin: otherPort(on.fake.url) },
      // An old browser that sends neither Fetch Metadata nor Origin, only where the form was.
      { referer: "https://evil.example/page" },
    ];
    for (const headers of foreign) {
      const answer = await new PortalClient(on.fake.url).raw("POST", "/session/logout", { ...form, ...headers }, "");
      assert.equal(answer.status, 403, JSON.stringify(headers));
      assertRefusedPage(answer, JSON.stringify(headers));
      assert.equal(answer.headers["set-cookie"], undefined, "the session cookie is left alone");
    }
    const page = await new PortalClient(on.fake.url).raw("GET", "/client/home", { cookie });
    assert.equal(page.status, 200, "still signed in");
    const own = { ...form, referer: `${on.fake.url}/client/home` };
    assert.equal(
      (await new PortalClient(on.fake.url).raw("POST", "/session/logout", own, "")).status,
      303,
      "this origin's",
    );
  });
});

describe("a form another site posted, as the person sees it", () => {
  it("is refused with a page in the portal's words, a way back to sign-in, and status 403; an /api call still reads JSON", async () => {
    const cookie = (await signIn(on.fake.app, accounts.alice, on.fake.code)).cookieHeader;
    const form = { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "cross-site", cookie };
    const forms: [string, string][] = [
      ["/", "site=client&shortName=ACME&userName=alice&password=pw"],
      ["/tax-bridge/login", "site=vendor&userName=vera&password=pw"],
      ["/mfa", "code=123456"],
      ["/client/users/change-password", "current=pw&next=Strong-Password-2026!&confirm=Strong-Password-2026!"],
      ["/session/logout", ""],
      ["/session/stay", ""],
      [END_SESSIONS_PATH, "session=all&password=pw"],
      [FORGET_DEVICES_PATH, "device=all"],
    ];
    for (const [path, body] of forms)
      assertRefusedPage(await new PortalClient(on.fake.url).raw("POST", path, form, body), path);
    const api = await new PortalClient(on.fake.url).raw(
      "POST",
      "/api/auth/vendor",
      { "content-type": "application/json", "sec-fetch-site": "cross-site", "x-portal-request": "1" },
      json({ username: "vera", password: "pw" }),
    );
    assert.equal(api.status, 403);
    assert.deepEqual(api.json(), { detail: errorTexts.accessDenied }, "an /api caller reads section 8's JSON");
    assert.equal((await new PortalClient(on.fake.url).raw("GET", "/client/home", { cookie })).status, 200);
  });
});

/** What a browser sends following a link on another site: a top-level navigation, no islands' header. */
const link = { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" };
const SESSION = sessionCookieName(true);
/** The cookies a browser sends only with this site's requests: the session's same-site cookie, the device cookie. */
const strictCookies = [sameSiteCookieName(true), deviceCookieName(true)];
const MINUTE = 60_000;

describe("a request another site started (issue 31, item 2)", () => {
  let clock = Date.now();
  let fake: PortalOnFake;
  before(async () => {
    fake = await portalOnFake(happyUpstream(), { now: () => clock });
  });
  after(() => fake.close());

  /** A browser signed in as alice now, and what it sends with a request another site starts: its Lax cookies. */
  async function signedIn() {
    const visitor = await signIn(fake.app, accounts.alice, fake.code);
    const browser = visitor.copy(fake.app, { islandsHeader: false });
    const laxCookies = () =>
      [...browser.cookies]
        .filter(([name]) => !strictCookies.includes(name))
        .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
        .join("; ");
    /** Follows a link on another site to `path`: the answer's cookies are kept, as a browser keeps them. */
    const follow = (path: string) => browser.get(path, { ...link, cookie: laxCookies() });
    return { browser, follow, laxCookies };
  }
  const sessionWrites = (answer: { cookies: { name: string }[] }) =>
    answer.cookies.filter((cookie) => cookie.name === SESSION || strictCookies.includes(cookie.name));

  it("a link from another site opens the signed-in person's page, and writes nothing of the session", async () => {
    const { browser, follow } = await signedIn();
    const sid = await sidOf(fake.portal, browser);
    const signedInAt = (await recordOf(fake.portal, sid)).seen;
    clock += 5 * MINUTE; // `seen` is due to be written again: any action of the person's would write it now
    const page = await follow("/client/activity");
    assert.equal(page.status, 200, "the page itself, not the sign-in page");
    assert.match(page.text, /alice/, "signed in as alice");
    assert.deepEqual(sessionWrites(page), [], "no cookie of the session is written");
    assert.equal((await recordOf(fake.portal, sid)).seen, signedInAt, "nor its record");
  });

  it("a link from another site to a session past its idle limit does not end it: the person's next request does, and says why", async () => {
    const { browser, follow } = await signedIn();
    clock += 31 * MINUTE;
    const page = await follow("/mfa");
    assert.deepEqual([page.status, page.headers.location], [302, "/"], "read as no session");
    assert.deepEqual(sessionWrites(page), [], "nothing written: no end, no notice");
    const login = await browser.get("/");
    assert.match(login.text, /Your session has expired/, "the person's own request ends it, with the idle notice");
  });

  it("a notice left for the sign-in page is neither shown nor spent by a link from another site: it waits for the person's own visit", async () => {
    const { browser, follow } = await signedIn();
    clock += 31 * MINUTE;
    assert.equal((await browser.get("/client/home")).status, 302, "the session ends at its idle limit");
    const linked = await follow("/");
    assert.equal(linked.status, 200);
    assert.doesNotMatch(linked.text, /Your session has expired/, "not told on a page another site opened");
    assert.deepEqual(sessionWrites(linked), [], "and not spent");
    assert.match((await browser.get("/")).text, /Your session has expired/, "told on the person's own visit");
  });

  it("a GET from a browser that sends no Fetch Metadata writes the session only with its Strict cookie, which this site's requests alone carry", async () => {
    const { browser, laxCookies } = await signedIn();
    const sid = await sidOf(fake.portal, browser);
    const signedInAt = (await recordOf(fake.portal, sid)).seen;
    clock += 5 * MINUTE; // `seen` is due to be written again
    const unsaid = await browser.get("/client/home", { cookie: laxCookies() });
    assert.equal(unsaid.status, 200, "it reads the session");
    assert.deepEqual(sessionWrites(unsaid), [], "without the Strict cookie, it writes no cookie");
    assert.equal((await recordOf(fake.portal, sid)).seen, signedInAt, "nor the session's record");
    const own = await browser.get("/client/home");
    assert.equal(own.status, 200);
    assert.equal(
      (await recordOf(fake.portal, sid)).seen,
      clock,
      "with it (a request of this site), the action is written",
    );
  });

  it("a PDF or /session/* asked by another site sees no session, as a Strict cookie would have it", async () => {
    const { browser, follow } = await signedIn();
    const pdf = await follow("/pdfs/BankHolidays.pdf");
    assert.equal(pdf.status, 401, "the PDF is not the person's from another site");
    assert.equal((await browser.get("/pdfs/BankHolidays.pdf")).status, 200, "it is from this site");
    const idle = await follow("/session/idle?return=/client/home");
    assert.equal(idle.headers.location, signInUrl("/client/home"), "the idle check sees no session from another site");
    assert.deepEqual(sessionWrites(idle), []);
  });

  it("a link from another site to /, to /tax-bridge/login or to an unknown address leads a signed-in person to their landing, never round in a loop", async () => {
    const { follow } = await signedIn();
    for (const start of ["/", "/tax-bridge/login", "/no-such-page"]) {
      const seen: string[] = [];
      let answer = await follow(start);
      // The browser follows each redirect as the same cross-site navigation, with the same Lax cookies.
      while (answer.status >= 300 && answer.status < 400 && seen.length < 5) {
        seen.push(String(answer.headers.location));
        answer = await follow(String(answer.headers.location));
      }
      assert.equal(answer.status, 200, `${start} ends on a page (${seen.join(" → ")})`);
      assert.equal(seen.at(-1), "/client/home", `${start} lands on alice's home`);
      assert.match(answer.text, /alice/);
      assert.deepEqual(sessionWrites(answer), [], "and writes nothing of the session");
    }
  });
});
