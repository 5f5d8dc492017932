// "Where you're signed in" on the change-password pages: the list, "Sign out" and "Sign out of all other devices"
// with the current password checked by the test call, the bad inputs that end nothing, and the CSRF rule.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { PortalClient } from "#harness/portal-client.ts";
import { accounts, DEMO_PASSWORD, latestMail, signIn } from "#harness/sign-in.ts";
import { END_SESSIONS_PATH } from "#server/loaders/account-view.ts";
import { type RunningPortal, startPortalInProcess } from "#tests/support/portal.ts";

const WINDOWS_CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";
const MAC_FIREFOX = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.1; rv:121.0) Gecko/20100101 Firefox/121.0";
const PAGE = "/client/users/change-password";

describe("Where you're signed in", () => {
  let portal: RunningPortal;
  before(async () => {
    portal = await startPortalInProcess({ listen: false });
  });
  after(() => portal.close());

  const browser = async (userAgent: string, account: (typeof accounts)[keyof typeof accounts] = accounts.alice) => {
    const client = new PortalClient(portal.app);
    client.headers = { "user-agent": userAgent };
    return signIn(client, account, portal.code);
  };
  /** The form as the person's browser posts it: urlencoded, same-origin, without the islands' header, its cookies kept. */
  const post = (client: PortalClient, fields: Record<string, string>, headers: Record<string, string> = {}) => {
    const form = new PortalClient(portal.app, { islandsHeader: false });
    form.cookies = client.cookies; // one browser: what the answer sets, the person's next page carries
    return form.post(END_SESSIONS_PATH, new URLSearchParams(fields), { "sec-fetch-site": "same-origin", ...headers });
  };
  const ids = (html: string) => [...html.matchAll(/name="session" value="([\w-]{22})"/g)].map((match) => match[1]);
  const opensHome = async (client: PortalClient) => (await client.copy().get("/client/home")).status === 200;

  it("lists the person's sessions, newest first, this one marked, each other with Sign out", async () => {
    const laptop = await browser(WINDOWS_CHROME);
    const phone = await browser(MAC_FIREFOX);
    const page = await phone.get(PAGE);
    assert.equal(page.status, 200);
    const html = page.text;
    assert.ok(html.indexOf("Where you&#x27;re signed in") > html.indexOf("Change Password"), "below the form");
    const firefox = html.indexOf("Firefox on macOS");
    const chrome = html.indexOf("Chrome on Windows");
    assert.ok(firefox > 0 && chrome > firefox, "newest first");
    assert.ok(html.indexOf("This device") > firefox && html.indexOf("This device") < chrome, "this one marked");
    assert.equal(ids(html).length, 1, "one other session to sign out");
    assert.match(html, /value="all"/);
    assert.match(html, /Recent security activity/);
    await laptop.post("/session/logout");
    await phone.post("/session/logout");
  });

  it("ends another session only with the right current password; a wrong one ends nothing", async () => {
    const laptop = await browser(WINDOWS_CHROME);
    const phone = await browser(MAC_FIREFOX);
    const [laptopId] = ids((await phone.get(PAGE)).text);
    assert.ok(laptopId);
    const wrong = await post(phone, { session: laptopId, password: "Not-The-Password-1!", return: PAGE });
    assert.equal(wrong.status, 303);
    assert.equal(wrong.headers.location, `${PAGE}?sessions=wrong-password#sessions`);
    assert.ok(await opensHome(laptop), "a wrong password ends nothing");
    assert.match((await phone.get(wrong.headers.location as string)).text, /The current password is not right/);
    const right = await post(phone, { session: laptopId, password: DEMO_PASSWORD, return: PAGE });
    assert.equal(right.headers.location, `${PAGE}?sessions=ended&count=1#sessions`);
    assert.equal(await opensHome(laptop), false, "the other session is refused");
    assert.ok(await opensHome(phone), "this one goes on");
    const after = await phone.get(right.headers.location as string);
    assert.match(after.text, /1 other session was signed out/);
    assert.match(
      after.text,
      /<section id="sessions"[^>]*>(?:(?!<\/section>)[\s\S])*<p class="note note-success"[^>]*tabindex="-1"/,
      "the answer comes back at the sessions section, its note there able to take the focus",
    );
    assert.equal(ids(after.text).length, 0, "the ended session is no longer listed");
    await phone.post("/session/logout");
  });

  it("Sign out of all other devices ends every other session of the person, and no one else's", async () => {
    const first = await browser(WINDOWS_CHROME);
    const second = await browser(MAC_FIREFOX);
    const victor = await browser(WINDOWS_CHROME, accounts.victor);
    const here = await browser(MAC_FIREFOX);
    const answer = await post(here, { session: "all", password: DEMO_PASSWORD, return: PAGE });
    assert.equal(answer.headers.location, `${PAGE}?sessions=ended&count=2#sessions`);
    assert.equal(await opensHome(first), false);
    assert.equal(await opensHome(second), false);
    assert.ok(await opensHome(here));
    assert.ok(await opensHome(victor), "another person's session goes on");
    await here.post("/session/logout");
    await victor.post("/session/logout");
  });

  it("refuses a session that is not the person's own, a malformed one, a missing password: nothing ends", async () => {
    const alice = await browser(WINDOWS_CHROME);
    const victor = await browser(WINDOWS_CHROME, accounts.victor);
    const other = await browser(MAC_FIREFOX, accounts.victor);
    const [victorsOther] = ids((await victor.get(PAGE)).text);
    assert.ok(victorsOther);
    const foreign = await post(alice, { session: victorsOther, password: DEMO_PASSWORD, return: PAGE });
    assert.equal(foreign.headers.location, `${PAGE}?sessions=unknown#sessions`);
    const malformed = await post(alice, { session: "<script>", password: DEMO_PASSWORD, return: PAGE });
    assert.equal(malformed.headers.location, `${PAGE}?sessions=unknown#sessions`);
    const missing = await post(alice, { session: "all", return: PAGE });
    assert.equal(missing.headers.location, `${PAGE}?sessions=password-required#sessions`);
    assert.ok(await opensHome(other), "victor's other session goes on");
    // The note comes from the session's one-time record of the last answer, which this browser keeps.
    await post(alice, { session: victorsOther, password: DEMO_PASSWORD });
    const page = await alice.get(`${PAGE}?sessions=unknown`);
    assert.match(page.text, /not one of yours, or has already ended/);
    assert.doesNotMatch((await alice.get(`${PAGE}?sessions=unknown`)).text, /not one of yours/, "once");
    for (const client of [alice, victor, other]) await client.post("/session/logout");
  });

  it("refuses a form posted from another site (the session scope's CSRF rule)", async () => {
    const laptop = await browser(WINDOWS_CHROME);
    const phone = await browser(MAC_FIREFOX);
    const [laptopId] = ids((await phone.get(PAGE)).text);
    assert.ok(laptopId);
    const forged = await post(
      phone,
      { session: laptopId, password: DEMO_PASSWORD },
      { "sec-fetch-site": "cross-site", origin: "https://evil.example" },
    );
    assert.equal(forged.status, 403);
    assert.ok(await opensHome(laptop), "nothing ended");
    await laptop.post("/session/logout");
    await phone.post("/session/logout");
  });

  it("writes a hostile User-Agent as a safe label, escaped", async () => {
    const hostile = await browser(`<img src=x onerror=alert(1)>\u0007${"A".repeat(5000)}`, accounts.gary);
    const page = await hostile.get("/client/users/change-password");
    assert.equal(page.status, 200);
    assert.doesNotMatch(page.text, /<img src=x/);
    assert.match(page.text, /Unknown device/);
  });

  it("names a device only from the fixed list: a User-Agent's own words never reach the page", async () => {
    const lure = await browser("ACME IT says call 0800 555 0100/1.0 (Windows NT 10.0)", accounts.gary);
    const page = await lure.get("/client/users/change-password");
    assert.equal(page.status, 200);
    assert.doesNotMatch(page.text, /0800|ACME IT/);
    assert.match(page.text, /Unknown browser on Windows/);
    await lure.post("/session/logout");
  });
});

describe("the note of what ending sessions did", () => {
  it("comes from the server's one-time record, never from the address: a link saying 7 sessions ended shows nothing", async () => {
    const portal = await startPortalInProcess({ listen: false });
    try {
      const alice = await signIn(portal.app, accounts.gary, portal.code);
      const page = await alice.get(`${PAGE}?sessions=ended&count=7`);
      assert.equal(page.status, 200);
      assert.doesNotMatch(page.text, /7 other sessions/);
      assert.doesNotMatch(page.text, /other sessions? (was|were) signed out/);
    } finally {
      await portal.close();
    }
  });

  it("says the real wait when too many attempts were made", async () => {
    const portal = await startPortalInProcess({ listen: false, env: { RATE_LIMIT_USER_PER_MINUTE: "2" } });
    try {
      const phone = await signIn(portal.app, accounts.victor, portal.code);
      const form = new PortalClient(portal.app, { islandsHeader: false });
      form.cookies = new Map(phone.cookies);
      const post = (password: string) =>
        form.post(END_SESSIONS_PATH, new URLSearchParams({ session: "all", password, return: PAGE }), {
          "sec-fetch-site": "same-origin",
        });
      await post("Wrong-1-Password!");
      await post("Wrong-2-Password!");
      const throttled = await post("Wrong-3-Password!");
      assert.equal(throttled.headers.location, `${PAGE}?sessions=throttled#sessions`);
      const text = (await form.get(String(throttled.headers.location))).text;
      const wait = Number(text.match(/Try again in (\d+) seconds?/)?.[1]);
      assert.ok(wait > 1 && wait <= 60, `the note says the window's wait (${wait})`);
    } finally {
      await portal.close();
    }
  });
});

describe("Where you're signed in, throttled", () => {
  it("throttles wrong passwords as the password test does: a wrong one counts, and past the limit nothing is tested", async () => {
    const portal = await startPortalInProcess({ listen: false, env: { RATE_LIMIT_USER_PER_MINUTE: "3" } });
    try {
      const laptop = await signIn(portal.app, accounts.victor, portal.code);
      const phone = await signIn(portal.app, accounts.victor, portal.code);
      const outcomes: string[] = [];
      const post = (password: string, remoteAddress = "127.0.0.1") =>
        new PortalClient(portal.app, { islandsHeader: false, remoteAddress }).post(
          END_SESSIONS_PATH,
          new URLSearchParams({ session: "all", password, return: PAGE }),
          { cookie: phone.cookieHeader },
        );
      for (let attempt = 0; attempt < 4; attempt += 1)
        outcomes.push(String((await post(`Wrong-${attempt}-Password!`)).headers.location));
      assert.deepEqual(outcomes.slice(0, 3), Array(3).fill(`${PAGE}?sessions=wrong-password#sessions`));
      assert.equal(outcomes[3], `${PAGE}?sessions=throttled#sessions`);
      // The session's own budget, whatever address its requests come from (a stolen cookie moves between addresses).
      const elsewhere = await post("Wrong-9-Password!", "127.0.0.77");
      assert.equal(
        elsewhere.headers.location,
        `${PAGE}?sessions=throttled#sessions`,
        "another address shares the budget",
      );
      const right = await post(DEMO_PASSWORD);
      assert.equal(right.headers.location, `${PAGE}?sessions=throttled#sessions`, "the right password waits too");
      assert.equal((await laptop.copy().get("/client/home")).status, 200, "nothing ended");
    } finally {
      await portal.close();
    }
  });
});

describe("Recent security activity under a flood of wrong passwords", () => {
  it("keeps every real event, an intruder's sign-in included, and shows the failures as one counted row", async () => {
    const portal = await startPortalInProcess({ listen: false });
    try {
      const from = (userAgent: string, remoteAddress: string) => {
        const client = new PortalClient(portal.app, { remoteAddress });
        client.headers = { "user-agent": userAgent };
        return client;
      };
      await (await signIn(from(WINDOWS_CHROME, "192.0.2.10"), accounts.alice, portal.code)).post("/session/logout");
      await (await signIn(from(MAC_FIREFOX, "198.51.100.7"), accounts.alice, portal.code)).post("/session/logout");
      const wrong = { shortname: "ACME", username: "alice", password: "Not-Alice-Password-1!" };
      for (let attempt = 0; attempt < 25; attempt += 1)
        await from(WINDOWS_CHROME, `203.0.113.${(attempt % 3) + 1}`).post("/api/auth/client", wrong);
      const owner = await signIn(from(WINDOWS_CHROME, "192.0.2.10"), accounts.alice, portal.code);
      const page = await owner.get(PAGE);
      assert.equal(page.status, 200);
      const activity = page.text.slice(page.text.indexOf("Recent security activity"));
      const rows = [...activity.matchAll(/<li[^>]*>([\s\S]*?)<\/li>/g)].map((row) =>
        String(row[1]).replaceAll("<!-- -->", ""),
      );
      const intruder = rows.filter((row) => row.includes("Firefox on macOS, 198.51.100.7"));
      assert.ok(
        intruder.some((row) => row.includes("<strong>Signed in with password and code</strong>")),
        "the intruder's sign-in is still listed",
      );
      assert.ok(intruder.some((row) => row.includes("<strong>Signed out</strong>")));
      const failures = rows.filter((row) => /failed sign-in attempt/i.test(row));
      assert.equal(failures.length, 1, "the failures are one row");
      assert.match(String(failures[0]), /25 failed sign-in attempts/);
      assert.match(String(failures[0]), /from 3 addresses/);
      assert.equal(
        rows.filter((row) => row.includes("<strong>Signed in with password and code</strong>")).length,
        3,
        "every sign-in",
      );
    } finally {
      await portal.close();
    }
  });

  it("shows the failures as a row for each period between two sign-ins, the older ones kept after later sign-ins", async () => {
    let time = Date.UTC(2026, 10, 24, 9, 0);
    const portal = await startPortalInProcess({ listen: false, now: () => time });
    try {
      const from = (remoteAddress: string) => {
        const client = new PortalClient(portal.app, { remoteAddress });
        client.headers = { "user-agent": WINDOWS_CHROME };
        return client;
      };
      let owner = await signIn(from("192.0.2.10"), accounts.alice, portal.code);
      const wrong = { shortname: "ACME", username: "alice", password: "Not-Alice-Password-2!" };
      for (const attempts of [2, 3, 4]) {
        time += 60_000;
        for (let attempt = 0; attempt < attempts; attempt += 1)
          await from(`203.0.113.${attempt + 1}`).post("/api/auth/client", wrong);
        time += 60_000;
        owner = await signIn(from("192.0.2.10"), accounts.alice, portal.code);
      }
      const page = await owner.get(PAGE);
      const activity = page.text.slice(page.text.indexOf("Recent security activity"));
      const rows = [...activity.matchAll(/<li[^>]*>([\s\S]*?)<\/li>/g)].map((row) =>
        String(row[1]).replaceAll("<!-- -->", ""),
      );
      const told = rows.flatMap((row) => {
        const failed = /(\d+) failed sign-in attempts from (\d+) addresses/.exec(row);
        if (failed) return [`${failed[1]} failed from ${failed[2]}`];
        return row.includes("<strong>Signed in with password and code</strong>") ? ["signed in"] : [];
      });
      assert.deepEqual(
        told,
        ["signed in", "4 failed from 4", "signed in", "3 failed from 3", "signed in", "2 failed from 2", "signed in"],
        "each count between the two sign-ins it fell between",
      );
    } finally {
      await portal.close();
    }
  });
});

describe("Recent security activity, readable (issue 41)", () => {
  let portal: RunningPortal;
  before(async () => {
    portal = await startPortalInProcess({ listen: false });
  });
  after(() => portal.close());
  const VENDOR_PAGE = "/vendor/users/change-password";
  const rows = (html: string) => [...html.matchAll(/<li[^>]*><strong>([^<]+)<\/strong>/g)].map((match) => match[1]);

  it("shows one row per sign-in, saying how it was made, newest first, and ten at a time with Show more as a link", async () => {
    let last: PortalClient | undefined;
    for (let signIns = 0; signIns < 5; signIns += 1)
      last = await signIn(new PortalClient(portal.app), accounts.vera, portal.code);
    const page = (await (last as PortalClient).get(VENDOR_PAGE)).text;
    const activity = page.slice(page.indexOf('id="activity"'));
    assert.deepEqual(rows(activity), Array(5).fill("Signed in with password and code"), "five sign-ins, five rows");
    assert.doesNotMatch(activity, /Password accepted|Verification code sent/, "the steps of a sign-in are not rows");
    assert.doesNotMatch(activity, /Show more/, "five rows fit one page");

    // Seven more sign-ins and their sign-outs: more than ten rows, so the page shows ten and a link to the next ten.
    for (let signIns = 0; signIns < 7; signIns += 1) {
      const client = await signIn(new PortalClient(portal.app), accounts.vera, portal.code);
      await client.post("/session/logout");
    }
    const first = (await (last as PortalClient).get(VENDOR_PAGE)).text;
    const firstActivity = first.slice(first.indexOf('id="activity"'));
    assert.equal(rows(firstActivity).length, 10);
    assert.equal(rows(firstActivity)[0], "Signed out", "newest first");
    const more = /<a href="([^"]+)">Show more<\/a>/.exec(firstActivity)?.[1]?.replaceAll("&amp;", "&");
    assert.equal(more, `${VENDOR_PAGE}?activity=20#activity`);
    const next = (await (last as PortalClient).get(String(more).replace(/#.*$/, ""))).text;
    assert.ok(rows(next.slice(next.indexOf('id="activity"'))).length > 10, "the next page shows more");
  });

  it("says a sign-in on a trusted browser skipped the code", async () => {
    const browser = await signIn(new PortalClient(portal.app), accounts.vince, portal.code);
    const code = /\b(\d{6})\b/.exec((await latestMail(portal.sandboxUrl, accounts.vince.email)).body)?.[1] ?? "";
    await browser.post("/session/logout");
    // The same browser signs in again, and its stored code passes silently (requirements 4.2).
    await browser.post("/api/auth/vendor", { username: "vince", password: DEMO_PASSWORD });
    assert.deepEqual((await browser.post(`/api/web/vendor/mfa/validate/${code}`)).json(), [{ text: "Passed" }]);
    const page = (await browser.get(VENDOR_PAGE)).text;
    assert.deepEqual(rows(page.slice(page.indexOf('id="activity"'))).slice(0, 3), [
      "Signed in on a trusted browser",
      "Signed out",
      "Signed in with password and code",
    ]);
  });
});
