// The sign-in path's forms posted as plain HTML, as a browser sends them before the island wakes or without script:
// each answered as the island is (requirements 4.1–4.4), with a 303 to the next page or to the form's own page, whose
// GET shows the note once (Back and Reload never send the form again), and never a secret in an address.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type Answer, sendJson } from "#harness/fake-upstream.ts";
import { type PortalAnswer, PortalClient } from "#harness/portal-client.ts";
import { accounts, DEMO_PASSWORD, latestMail, signIn } from "#harness/sign-in.ts";
import { serverTexts } from "#server/texts.ts";
import { failingAnswers } from "#tests/support/failing-upstream.ts";
import { type RunningPortal, sandboxPost, startPortalInProcess } from "#tests/support/portal.ts";
import { type PortalOnFake, portalsOnFakeForFile } from "#tests/support/portal-on-fake.ts";
import { answerMessage } from "#web/api/answer.ts";
import { landingUrl } from "#web/site.ts";
import { errorTexts } from "#web/texts/errors.ts";
import { linkLoginTexts } from "#web/texts/link-login.ts";

const NEW_PASSWORD = "Fresh-Start-2026!";

describe("the sign-in path's forms without script", () => {
  let portal: RunningPortal;
  before(async () => {
    portal = await startPortalInProcess({ listen: false });
  });
  after(() => portal.close());

  /** A browser's tab: its cookies, and its forms posted urlencoded, same-origin, without the islands' header. */
  const browser = () => new PortalClient(portal.app, { islandsHeader: false });
  const send = (client: PortalClient, path: string, fields: Record<string, string>, site = "same-origin") =>
    client.post(path, new URLSearchParams(fields), { "sec-fetch-site": site });
  const mailCount = async (to: string) => {
    try {
      return (await latestMail(portal.sandboxUrl, to)).id;
    } catch {
      return 0;
    }
  };
  const codeAfter = async (to: string, id: number) => {
    const mail = await latestMail(portal.sandboxUrl, to);
    assert.ok(mail.id > id, `a new code was mailed to ${to}`);
    return /\b(\d{6})\b/.exec(mail.body)?.[1] ?? "";
  };
  /**
   * A form answered on its own page: a 303 back to the address it was posted to, and that page as the browser then
   * asks for it, with the note.
   */
  const sentBack = async (client: PortalClient, path: string, fields: Record<string, string>) => {
    const answer = await send(client, path, fields);
    assert.equal(answer.status, 303, answer.text);
    assert.equal(answer.headers.location, path, "the form's own page, asked again by a GET");
    assert.equal(answer.text, "", "the answer to the POST is no page");
    return client.get(path);
  };
  const noSecretIn = (answer: PortalAnswer, ...secrets: string[]) => {
    for (const secret of secrets)
      assert.ok(!String(answer.headers.location ?? "").includes(secret), "not in an address");
  };

  it("reads a company and user ID typed with blanks around them as /api does: both sign GLOBEX's gary in", async () => {
    const padded = { shortName: " GLOBEX ", userName: " gary\t" };
    const form = await send(browser(), "/", { site: "client", ...padded, password: DEMO_PASSWORD });
    assert.equal(form.status, 303, form.text);
    assert.equal(form.headers.location, "/mfa", "the form's sign-in holds a token");
    const api = await new PortalClient(portal.app).post("/api/auth/client", {
      shortname: padded.shortName,
      username: padded.userName,
      password: DEMO_PASSWORD,
    });
    assert.equal(api.status, 200, api.text);
    assert.equal((api.json() as { tokenHeld: boolean }).tokenHeld, true, "the /api call holds a token too");
    const blank = await new PortalClient(portal.app).post("/api/auth/vendor", { username: "  ", password: "pw" });
    assert.equal(blank.status, 400, "a user ID of blanks alone is none, refused as the form refuses it");
  });

  it("signs a client in with the password, then the mailed code, each answered by a 303 to the next page", async () => {
    const tab = browser();
    const before = await mailCount(accounts.alice.email);
    const login = await send(tab, "/", {
      site: "client",
      shortName: "ACME",
      userName: "alice",
      password: DEMO_PASSWORD,
    });
    assert.equal(login.status, 303);
    assert.equal(login.headers.location, "/mfa");
    noSecretIn(login, DEMO_PASSWORD);
    // No script will try this device's stored code: the code is sent with the login.
    const code = await codeAfter(accounts.alice.email, before);
    const step = await tab.get("/mfa");
    assert.equal(step.status, 200);
    assert.match(step.text, /<form[^>]*method="post"/);
    const passed = await send(tab, "/mfa", { code });
    assert.equal(passed.status, 303);
    assert.equal(passed.headers.location, "/session/landing");
    noSecretIn(passed, code);
    assert.equal((await tab.get("/client/home")).status, 200, "signed in");
  });

  it("signs a vendor in from the vendor tab's form, and lands on the page first asked for", async () => {
    const tab = browser();
    const before = await mailCount(accounts.vera.email);
    const path = `/?site=vendor&return=${encodeURIComponent("/vendor/users/change-password")}`;
    const login = await send(tab, path, { site: "vendor", userName: "vera", password: DEMO_PASSWORD });
    assert.equal(login.headers.location, `/mfa?return=${encodeURIComponent("/vendor/users/change-password")}`);
    const code = await codeAfter(accounts.vera.email, before);
    const passed = await send(tab, login.headers.location as string, { code: `${code.slice(0, 3)} ${code.slice(3)}` });
    assert.equal(
      passed.headers.location,
      `/session/landing?return=${encodeURIComponent("/vendor/users/change-password")}`,
    );
  });

  it("signs a vendor in from /tax-bridge/login's form in tax-bridge mode, landing on Invoices Due", async () => {
    const tab = browser();
    const before = await mailCount(accounts.vera.email);
    const login = await send(tab, "/tax-bridge/login?site=vendor", {
      site: "vendor",
      userName: "vera",
      password: DEMO_PASSWORD,
    });
    assert.equal(login.headers.location, "/mfa");
    const passed = await send(tab, "/mfa", { code: await codeAfter(accounts.vera.email, before) });
    assert.equal(passed.headers.location, "/session/landing");
    assert.equal((await tab.get("/session/landing")).headers.location, "/vendor/invoice/due");
  });

  it("sends the login page again with requirements 5's first missing field, in order, keeping the IDs typed", async () => {
    const tab = browser();
    const empty = await sentBack(tab, "/", { site: "client", shortName: "", userName: "alice", password: "" });
    assert.equal(empty.status, 200);
    assert.match(empty.text, /Company Short Name is required\./);
    assert.match(empty.text, /value="alice"/, "the User ID typed stays");
    const vendor = await sentBack(tab, "/", { site: "vendor", userName: "vera", password: "" });
    assert.match(vendor.text, /Password is required\./);
    assert.match(vendor.text, /aria-selected="true"[^>]*>VENDOR LOGIN|VENDOR LOGIN/);
  });

  it("says Invalid Login for a wrong password, and never writes the password back into the page", async () => {
    const tab = browser();
    const wrong = "Not-The-Password-9!";
    const answer = await sentBack(tab, "/", {
      site: "client",
      shortName: "ACME",
      userName: "alice",
      password: wrong,
      remember: "on",
    });
    assert.match(answer.text, /Invalid Login/);
    assert.ok(!answer.text.includes(wrong), "the password is not sent back");
    assert.match(answer.text, /value="ACME"/);
  });

  it("answers a refused form with a 303 to its page's own GET, which says why once: a reload says it no more", async () => {
    const tab = browser();
    const wrong = "Not-The-Password-9!";
    const posted = await send(tab, "/?site=vendor", { site: "vendor", userName: "vera", password: wrong });
    assert.deepEqual([posted.status, posted.headers.location], [303, "/?site=vendor"], "no page answers the POST");
    const page = await tab.get("/?site=vendor");
    assert.equal(page.status, 200);
    assert.match(page.text, /Invalid Login/);
    assert.match(page.text, /value="vera"/, "the user ID typed stays");
    assert.ok(!page.text.includes(wrong), "the password is not sent back");
    const reload = await tab.get("/?site=vendor");
    assert.doesNotMatch(reload.text, /Invalid Login/, "a reload shows the note no more");
    assert.doesNotMatch(reload.text, /value="vera"/);
  });

  it("says a user ID, a company or an e-mail address is too long, where /api says the same, and keeps the rest typed", async () => {
    const long = "x".repeat(5_000);
    const user = await sentBack(browser(), "/", { site: "client", shortName: "ACME", userName: long, password: "pw" });
    assert.match(user.text, /User ID is too long\./);
    assert.doesNotMatch(user.text, /Action Failed/);
    assert.match(user.text, /value="ACME"/, "the company typed stays");
    assert.ok(!user.text.includes(long), "the over-long ID is not written back");
    const company = await sentBack(browser(), "/", {
      site: "client",
      shortName: long,
      userName: "alice",
      password: "pw",
    });
    assert.match(company.text, /Company Short Name is too long\./);
    const email = await sentBack(browser(), "/?reset", {
      intent: "reset",
      site: "vendor",
      clientShortName: "",
      emailAddress: `${long}@example.com`,
    });
    assert.match(email.text, /Email Address is too long\./);
    const api = await new PortalClient(portal.app).post("/api/auth/client", {
      shortname: "ACME",
      username: long,
      password: "pw",
    });
    assert.equal(api.status, 400);
    assert.deepEqual(api.json(), { detail: "User ID is too long." }, "the /api call is refused by the same rule");
    assert.equal(answerMessage(api.status, api.json()), "User ID is too long.", "the island says it as the form does");
  });

  it("says a user ID or an e-mail address of only blanks is required, where /api says the same (issue 37)", async () => {
    const user = await sentBack(browser(), "/", { site: "client", shortName: "ACME", userName: "   ", password: "pw" });
    assert.match(user.text, /User ID is required\./);
    const email = await sentBack(browser(), "/?reset", {
      intent: "reset",
      site: "vendor",
      clientShortName: "",
      emailAddress: "  ",
    });
    assert.match(email.text, /Email Address is required\./);
    for (const [path, body, words] of [
      ["/api/auth/client", { shortname: "ACME", username: "   ", password: "pw" }, "User ID is required."],
      ["/api/web/reset-pwd", { clientShortName: "", emailAddress: "  " }, "Email Address is required."],
    ] as const) {
      const api = await new PortalClient(portal.app).post(path, body);
      assert.equal(api.status, 400);
      assert.deepEqual(api.json(), { detail: words }, "the /api call is refused in the form's words");
      assert.equal(answerMessage(api.status, api.json()), words, "the island says it as the form does");
    }
  });

  it("says a deactivated account is deactivated", async () => {
    const answer = await sentBack(browser(), "/", {
      site: "client",
      shortName: "ACME",
      userName: "dora",
      password: DEMO_PASSWORD,
    });
    assert.match(answer.text, /This account has been deactivated\./);
  });

  /** A sign-in link's uuid, as the sandbox mails it (requirements 2.6). */
  const mintLink = async (site: "client" | "vendor", username: string) =>
    String((await sandboxPost(portal.sandboxUrl, "/sandbox/link-login", { site, username })).uuid);

  it("spends a sign-in link by its page's Continue, posted without script, with the island's call, then lands", async () => {
    const tab = browser();
    const uuid = await mintLink("vendor", "vince");
    const page = await tab.get(`/login?uuid=${uuid}&type=Vendor`);
    assert.equal(page.status, 200);
    assert.ok(page.text.includes(linkLoginTexts.authenticating), "requirements 2.6's words, while the island runs");
    assert.match(page.text, /<form[^>]* action="\/login" method="post">/, "a plain form for a page without script");
    assert.ok(page.text.includes(`<input type="hidden" name="uuid" value="${uuid}"/>`));
    assert.ok(page.text.includes('<input type="hidden" name="type" value="Vendor"/>'));
    assert.ok(!page.text.includes('name="replace"'), "no session beside it: nothing to replace");
    const posted = await send(tab, "/login", { uuid, type: "Vendor" });
    assert.equal(posted.status, 303, posted.text);
    assert.equal(posted.headers.location, landingUrl("/vendor/home"), "the landing, as the island's");
    const landing = await tab.get(String(posted.headers.location));
    assert.equal(landing.headers.location, "/vendor/home");
    assert.equal((await tab.get("/vendor/home")).status, 200, "signed in");
    // Spent: the same link posted again is refused with requirements 2.6's words.
    const again = await send(browser(), "/login", { uuid, type: "Vendor" });
    assert.deepEqual([again.status, again.headers.location], [303, "/login"]);
  });

  it("says Invalid Login for a refused link after a 303 to /login, once, from the flash", async () => {
    const tab = browser();
    const uuid = "00000000-0000-4000-8000-000000000000";
    const answer = await sentBack(tab, "/login", { uuid, type: "Client" });
    assert.equal(answer.status, 200);
    assert.ok(answer.text.includes(linkLoginTexts.invalid), answer.text);
    assert.ok(!answer.text.includes(linkLoginTexts.authenticating), "nothing runs any more");
    assert.ok(!answer.text.includes(uuid), "the refused link is in no address or form");
    const reload = await tab.get("/login");
    assert.ok(!reload.text.includes(linkLoginTexts.invalid), "a reload says it no more");
    assert.ok(reload.text.includes(linkLoginTexts.incompleteHeading), "the bare /login again");
    const failed = await sentBack(browser(), "/login", { uuid: "x".repeat(129), type: "Client" });
    assert.match(failed.text, /Login Failed: /, "a call /api refuses: requirements 2.6's other words");
  });

  it("replaces a session beside the link only on Continue with this link, as the island's header", async () => {
    const tab = (await signIn(portal.app, accounts.gary, portal.code)).copy(portal.app, { islandsHeader: false });
    const uuid = await mintLink("vendor", "vince");
    // The plain Continue, from a page that knew of no session (it came from another site): the rule holds.
    const plain = await send(tab, "/login", { uuid, type: "Vendor" });
    assert.deepEqual([plain.status, plain.headers.location], [303, `/login?uuid=${uuid}&type=Vendor`]);
    assert.equal((await tab.get("/client/home")).status, 200, "the session is still gary's");
    const page = await tab.get(String(plain.headers.location));
    assert.ok(page.text.includes(linkLoginTexts.replaceHeading), "the link's page names the session and waits");
    assert.ok(page.text.includes('<input type="hidden" name="replace" value="1"/>'), "its plain form says so");
    const replaced = await send(tab, "/login", { uuid, type: "Vendor", replace: "1" });
    assert.equal(replaced.headers.location, landingUrl("/vendor/home"), replaced.text);
    assert.equal((await tab.get("/vendor/home")).status, 200, "vince, by the link");
  });

  it("sends a form posted to another spelling of a page's address on to the page's own, as a POST with its body", async () => {
    const answer = await send(browser(), "/Tax-Bridge/Login/?return=%2Fvendor%2Finbox", { site: "vendor" });
    assert.equal(answer.status, 308);
    assert.equal(answer.headers.location, "/tax-bridge/login?return=%2Fvendor%2Finbox");
  });

  it("sends a form posted to another spelling of a page with parameters on to that page's own address", async () => {
    const answer = await send(browser(), "/USPTO/Codes/Fee%20Codes/", {});
    assert.equal(answer.status, 308);
    assert.equal(answer.headers.location, "/uspto/codes/Fee%20Codes");
  });

  it("sends a form posted to a page that takes none to that page, as a link to it would", async () => {
    for (const path of ["/client/home", "/uspto/codes/fees?x=1"]) {
      const answer = await send(browser(), path, { userName: "a" });
      assert.deepEqual([answer.status, answer.headers.location], [303, path], answer.text);
    }
  });

  it("answers a form it cannot read with a page that says so, never JSON, and signs no one in", async () => {
    const bodies: [string, string, number, string][] = [
      ["a repeated field", "site=client&shortName=ACME&shortName=GLOBEX&userName=alice&password=x", 400, "formRefused"],
      ["a field no form has", "site=client&userName=alice&admin=1", 400, "formRefused"],
      ["a body too large", `site=client&shortName=${"A".repeat(20_000)}&userName=a&password=x`, 413, "formTooLarge"],
    ];
    for (const [what, body, status, text] of bodies) {
      const answer = await browser().post("/", new URLSearchParams(body), { "sec-fetch-site": "same-origin" });
      assert.equal(answer.status, status, what);
      assert.match(String(answer.headers["content-type"]), /^text\/html/, what);
      assert.ok(answer.text.includes(serverTexts[text as "formRefused"].message), what);
    }
    const json = { site: "client", shortName: "ACME", userName: "alice", password: DEMO_PASSWORD };
    const asJson = await browser().post("/", json, { "sec-fetch-site": "same-origin" });
    assert.equal(asJson.status, 415, "a page's form posts its fields, never JSON");
    assert.ok(asJson.text.includes(serverTexts.formRefused.message));
    assert.equal(asJson.headers.location, undefined, "no step opened");
  });

  it("answers a form posted to an address no page has as not found, whatever its fields", async () => {
    for (const path of ["/no/such/page", "/API/web/client/mfa/generate"]) {
      const answer = await send(browser(), path, { userName: "a", extra: "b" });
      assert.equal(answer.status, 404, `${path}: ${answer.text}`);
    }
  });

  it("refuses a form another site posted, before anything is sent upstream", async () => {
    const before = await mailCount(accounts.alice.email);
    const answer = await send(
      browser(),
      "/",
      { site: "client", shortName: "ACME", userName: "alice", password: DEMO_PASSWORD },
      "cross-site",
    );
    assert.equal(answer.status, 403);
    assert.equal(await mailCount(accounts.alice.email), before, "no code sent");
  });

  it("says a wrong code is wrong, with the attempts left, and keeps the step", async () => {
    const tab = browser();
    await send(tab, "/", { site: "client", shortName: "ACME", userName: "victor", password: DEMO_PASSWORD });
    const wrong = await sentBack(tab, "/mfa", { code: "000000" });
    assert.equal(wrong.status, 200);
    assert.match(wrong.text, /Incorrect\. Please try again with the most recent code\./);
    const letters = await sentBack(tab, "/mfa", { code: "12ab" });
    assert.match(letters.text, /The code is made of digits only/);
    const long = await sentBack(tab, "/mfa", { code: "123456789" });
    assert.match(long.text, /The code has at most 8 digits\./, "never sent: it could only fail");
    assert.match(wrong.text, /4 attempts left\./);
    assert.match(
      (await sentBack(tab, "/mfa", { code: "000000" })).text,
      /3 attempts left\./,
      "the long code spent none",
    );
    assert.doesNotMatch((await tab.get("/mfa")).text, /Incorrect/, "a reload of the step says it no more");
  });

  it("sends the code again on Send Again, within the cooldown only once", async () => {
    const tab = browser();
    await send(tab, "/", { site: "client", shortName: "ACME", userName: "victor", password: DEMO_PASSWORD });
    const again = await sentBack(tab, "/mfa", { intent: "send-again" });
    assert.equal(again.status, 200);
    assert.match(
      again.text,
      /A code was sent moments ago\. You can send another in \d+ seconds?\./,
      "the code sent with the login is moments old: said in a sentence, not as the button's count",
    );
  });

  it("sends the reset e-mail and shows its confirmation at an address that names no one", async () => {
    const tab = browser();
    const missing = await sentBack(tab, "/?reset", {
      intent: "reset",
      site: "client",
      clientShortName: "GLOBEX",
      emailAddress: "",
    });
    assert.match(missing.text, /Email Address is required\./);
    assert.match(missing.text, /value="GLOBEX"/, "the company typed stays");
    const before = await mailCount(accounts.gary.email);
    const sent = await send(tab, "/?reset", {
      intent: "reset",
      site: "client",
      clientShortName: "GLOBEX",
      emailAddress: accounts.gary.email,
    });
    assert.equal(sent.status, 303);
    assert.equal(sent.headers.location, "/?site=client&reset=sent");
    assert.ok((await mailCount(accounts.gary.email)) > before, "the reset mail went out");
    const page = await tab.get(sent.headers.location as string);
    assert.match(page.text, /If there is an account associated with the email you&#x27;ve entered/);
  });

  it("changes a signed-in person's password on the change-password page, checking it as the island does", async () => {
    const tab = browser();
    await signIn(tab.copy(portal.app, {}), accounts.gary, portal.code).then((signedIn) => {
      tab.cookies = signedIn.cookies;
    });
    const page = "/client/users/change-password";
    const short = await sentBack(tab, page, { current: DEMO_PASSWORD, next: "short", confirm: "short" });
    assert.match(short.text, /Password must be at least 12 characters in length\./);
    const wrong = await sentBack(tab, page, {
      current: "Not-The-Password-9!",
      next: NEW_PASSWORD,
      confirm: NEW_PASSWORD,
    });
    assert.match(wrong.text, /role="alert"/, "the test call's refusal is said");
    const changed = await sentBack(tab, page, { current: DEMO_PASSWORD, next: NEW_PASSWORD, confirm: NEW_PASSWORD });
    assert.equal(changed.status, 200);
    assert.match(changed.text, /Password Successfully Changed!/);
    assert.ok(!changed.text.includes(NEW_PASSWORD), "no password is sent back");
  });

  it("changes nothing for a form posted to another audience's change-password page, whose GET is forbidden", async () => {
    const tab = browser();
    await signIn(tab.copy(portal.app, {}), accounts.globexAlice, portal.code).then((signedIn) => {
      tab.cookies = signedIn.cookies;
    });
    const page = "/vendor/users/change-password";
    const other = "Other-Audience-2026!";
    const answer = await send(tab, page, { current: DEMO_PASSWORD, next: other, confirm: other });
    assert.equal(answer.status, 303);
    assert.equal(answer.headers.location, page, "its own GET, which says why");
    assert.equal((await tab.get(page)).status, 403, "Access Denied, as the GET of that page always is");
    const withOld = await signIn(portal.app, accounts.globexAlice, portal.code);
    assert.equal((await withOld.get("/client/home")).status, 200, "the password was not changed: the old one signs in");
  });

  it("changes nothing for a change-password form posted without a session: its page sends to the sign-in", async () => {
    const tab = browser();
    const page = "/client/users/change-password";
    const answer = await send(tab, page, { current: DEMO_PASSWORD, next: NEW_PASSWORD, confirm: NEW_PASSWORD });
    assert.deepEqual([answer.status, answer.headers.location], [303, page], "its own GET, which says where to go");
    const shown = await tab.get(page, { "sec-fetch-mode": "navigate" });
    assert.equal(shown.headers.location, `/?return=${encodeURIComponent(page)}`, "the sign-in, then back here");
  });

  it("takes the forced change of an expired password at /mfa, then moves on to the home page", async () => {
    const tab = browser();
    const before = await mailCount(accounts.paula.email);
    await send(tab, "/", { site: "client", shortName: "ACME", userName: "paula", password: DEMO_PASSWORD });
    const code = await codeAfter(accounts.paula.email, before);
    const passed = await send(tab, "/mfa", { code });
    assert.equal(passed.headers.location, "/mfa", "the change-password step comes next");
    assert.match((await tab.get("/mfa")).text, /Your password has expired\. Please enter a new password/);
    const mismatch = await sentBack(tab, "/mfa", {
      current: DEMO_PASSWORD,
      next: NEW_PASSWORD,
      confirm: "Other-Start-2026!",
    });
    assert.match(mismatch.text, /New and confirm password do not match\./);
    assert.equal(mismatch.headers.refresh, undefined, "a refusal stays on the step");
    const changed = await sentBack(tab, "/mfa", { current: DEMO_PASSWORD, next: NEW_PASSWORD, confirm: NEW_PASSWORD });
    assert.equal(changed.status, 200);
    assert.match(changed.text, /Password Successfully Changed!/);
    assert.equal(changed.headers.refresh, "4; url=/client/home");
    const reload = await tab.get("/mfa");
    assert.equal(reload.headers.location, "/client/home", "a reload of the step, its success said, goes on home");
    assert.equal((await tab.get("/client/home")).status, 200, "signed in");
  });
});

describe("a sign-in form without script and the island share one budget of attempts", () => {
  let portal: RunningPortal;
  before(async () => {
    portal = await startPortalInProcess({ listen: false, env: { RATE_LIMIT_USER_PER_MINUTE: "2" } });
  });
  after(() => portal.close());

  it("counts the form's wrong passwords where the island's count, and refuses either once it is spent", async () => {
    const form = new PortalClient(portal.app, { islandsHeader: false });
    const wrong = { site: "client", shortName: "ACME", userName: "alice", password: "Not-The-Password-9!" };
    const post = async (fields: Record<string, string>) => {
      const answer = await form.post("/", new URLSearchParams(fields), { "sec-fetch-site": "same-origin" });
      assert.deepEqual([answer.status, answer.headers.location], [303, "/"]);
      return form.get("/");
    };
    for (let attempt = 0; attempt < 2; attempt += 1) assert.match((await post(wrong)).text, /Invalid Login/);
    const island = await new PortalClient(portal.app).post("/api/auth/client", {
      shortname: "ACME",
      username: "alice",
      password: DEMO_PASSWORD,
    });
    assert.equal(island.status, 429, "the island's call finds the budget the forms spent");
    const third = await post({ ...wrong, password: DEMO_PASSWORD });
    assert.match(third.text, /Too many attempts\. Please wait \d+ seconds? and try again\./, "the form says to wait");
  });

  it("ends a sign-in whose code cannot be sent, its sends spent, and the sign-in page says the session expired", async () => {
    const signInOnce = async () => {
      const tab = new PortalClient(portal.app, { islandsHeader: false });
      const fields = { site: "vendor", userName: "vera", password: DEMO_PASSWORD };
      const answer = await tab.post("/", new URLSearchParams(fields), { "sec-fetch-site": "same-origin" });
      assert.equal(answer.status, 303);
      return { tab, location: answer.headers.location };
    };
    const tries = [];
    for (let attempt = 0; attempt < 4; attempt += 1) tries.push(await signInOnce());
    assert.equal(tries[0]?.location, "/mfa", "a code was sent: the step");
    const refused = tries.find(({ location }) => location === "/");
    assert.ok(refused, "once the person's sends are spent, the sign-in ends instead of claiming a code went out");
    const page = await refused.tab.get("/");
    assert.equal(page.status, 200);
    assert.ok(page.text.includes(errorTexts.sessionExpired), "requirements 4.2's words");
    assert.equal((await refused.tab.get("/mfa")).headers.location, "/", "no sign-in waits for a code");
  });

  it("ends the island's sign-in on the server too when its code is refused, the sends spent", async () => {
    const signInOnce = async () => {
      const island = new PortalClient(portal.app);
      const held = await island.post("/api/auth/vendor", { username: "vince", password: DEMO_PASSWORD });
      assert.equal(held.status, 200, "the password passed: a sign-in waits for its code");
      return { island, sent: (await island.post("/api/web/vendor/mfa/generate")).status };
    };
    const tries = [];
    for (let attempt = 0; attempt < 4; attempt += 1) tries.push(await signInOnce());
    const refused = tries.find(({ sent }) => sent === 429);
    assert.ok(refused, `the person's sends are spent (${tries.map(({ sent }) => sent).join(", ")})`);
    const { island } = refused;
    assert.equal((await island.get("/mfa")).headers.location, "/", "no sign-in waits on the server for a code");
    assert.ok((await island.get("/")).text.includes(errorTexts.sessionExpired), "requirements 4.2's words");
  });
});

describe("a sign-in form without script when the upstream does not answer", () => {
  const onFake = portalsOnFakeForFile();
  /** The form posted, and the sign-in page its 303 leads back to. */
  const post = async (fake: PortalOnFake, fields: Record<string, string>) => {
    const tab = new PortalClient(fake.app, { islandsHeader: false });
    const answer = await tab.post("/", new URLSearchParams(fields), { "sec-fetch-site": "same-origin" });
    assert.deepEqual([answer.status, answer.headers.location], [303, "/"]);
    return tab.get("/");
  };
  const login = { site: "client", shortName: "ACME", userName: "alice", password: DEMO_PASSWORD };

  it("says after section 8's text that the service is not answering, and keeps what was typed", async () => {
    const fake = await onFake();
    for (const [what, answer] of Object.entries({
      "a 502": failingAnswers["a 502 from its gateway"],
      "a 500": failingAnswers["a 500 with a stack trace"],
      "a connection reset": failingAnswers["a connection reset"],
    })) {
      fake.upstream.answer = answer as Answer;
      const page = await post(fake, login);
      assert.equal(page.status, 200, what);
      assert.ok(page.text.includes(errorTexts.outage), `${what}: the outage sentence`);
      assert.match(page.text, /(Action Failed|Internal Server Error)\. The service is not answering/, what);
      assert.match(page.text, /value="alice"/, `${what}: the user ID typed stays`);
    }
  });

  it("says nothing of an outage when the upstream answered and refused the sign-in", async () => {
    const fake = await onFake();
    fake.upstream.answer = (_call, response) => sendJson(response, 200, { message: "Success" });
    const page = await post(fake, login);
    assert.match(page.text, /Invalid Login/);
    assert.ok(!page.text.includes(errorTexts.outage));
  });
});
