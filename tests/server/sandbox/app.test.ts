// Integration tests of the sandbox upstream over real HTTP: the operations of openapi/portal.yaml and the sandbox levers.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { components } from "#openapi/schema.d.ts";
import { type RunningSandbox, startSandbox } from "#server/sandbox/app.ts";
import { renderMailPage } from "#server/sandbox/mail-page.ts";
import type { StoredMail } from "#server/sandbox/mailbox.ts";
import { SEED_PASSWORD, seedAccounts } from "#server/sandbox/seed.ts";
import type { VisitRecord } from "#server/sandbox/visits.ts";
import { resetForm, resetLinkPath } from "#tests/support/reset-link.ts";

type Schemas = components["schemas"];
type Site = Schemas["Site"];

const MINUTE = 60_000;
const PORTAL_URL = "http://portal.test";
const RESET_SUBJECT = "Reset your password";
let clock = Date.parse("2026-03-02T09:00:00.000Z");
let sandbox: RunningSandbox;

interface Answer<T> {
  status: number;
  body: T;
  headers: Headers;
}

interface CallOptions {
  body?: unknown;
  token?: string;
  /** Sent as is, for bodies that are not valid JSON. */
  raw?: string;
  contentType?: string;
  base?: string;
}

async function call<T = unknown>(method: string, path: string, options: CallOptions = {}): Promise<Answer<T>> {
  const headers: Record<string, string> = {};
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  const payload = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  if (payload !== undefined) headers["content-type"] = options.contentType ?? "application/json";
  const response = await fetch(`${options.base ?? sandbox.url}${path}`, {
    method,
    headers,
    body: payload,
    redirect: "manual",
  });
  const text = await response.text();
  const json = (response.headers.get("content-type") ?? "").includes("json") && text !== "";
  return { status: response.status, headers: response.headers, body: (json ? JSON.parse(text) : text) as T };
}

function signIn(site: Site, username: string, password = SEED_PASSWORD, shortname = "ACME") {
  const body = site === "client" ? { shortname, username, password } : { username, password };
  return call<Schemas["LoginResponse"]>("POST", `/auth/${site}`, { body });
}

async function mailsTo(to: string): Promise<StoredMail[]> {
  return (await call<StoredMail[]>("GET", `/sandbox/mail.json?to=${encodeURIComponent(to)}`)).body;
}

async function latestCode(to: string): Promise<string> {
  const [mail] = await mailsTo(to);
  const code = /Your verification code is (\d{6})\. It expires in 10 minutes\./.exec(mail?.body ?? "")?.[1];
  assert.ok(code, `a verification code was e-mailed to ${to}`);
  return code;
}

/** A code that is none of the given ones. */
function otherCode(...codes: string[]): string {
  let candidate = 0;
  while (codes.includes(String(candidate).padStart(6, "0"))) candidate++;
  return String(candidate).padStart(6, "0");
}

function validate(site: Site, token: string, code: string) {
  return call<Schemas["MfaVerdict"]>("POST", `/web/${site}/mfa/validate/${code}`, { token });
}

async function unverifiedToken(site: Site, username: string, password = SEED_PASSWORD, shortname = "ACME") {
  const { body } = await signIn(site, username, password, shortname);
  assert.ok(body.token, `${username} signed in`);
  return body.token;
}

/** Password sign-in, then the e-mailed code: the full path a user takes. */
async function verifiedBySignIn(site: Site, username: string, email: string, password = SEED_PASSWORD) {
  const token = await unverifiedToken(site, username, password);
  assert.equal((await call("POST", `/web/${site}/mfa/generate`, { token })).status, 200);
  assert.deepEqual((await validate(site, token, await latestCode(email))).body, [{ text: "Passed" }]);
  return token;
}

async function linkLogin(site: Site, username: string, base?: string) {
  const minted = await call<{ uuid: string; url: string }>("POST", "/sandbox/link-login", {
    body: { site, username },
    base,
  });
  assert.equal(minted.status, 200);
  return minted.body;
}

/** A verified token without a scrypt: the link-login way. */
async function verifiedByLink(site: Site, username: string, base?: string): Promise<string> {
  const { uuid } = await linkLogin(site, username, base);
  const { body } = await call<Schemas["LinkLoginResponse"]>("POST", `/auth/${site}-token?uuid=${uuid}`, { base });
  assert.ok(body.token);
  return body.token;
}

before(async () => {
  sandbox = await startSandbox({ dbPath: ":memory:", portalUrl: `${PORTAL_URL}/`, now: () => clock });
});
after(() => sandbox.close());

describe("sign-in by password", () => {
  test("a client signs in by company short name, user ID and password, case-insensitively, and gets a token with the message Success", async () => {
    const { status, body } = await signIn("client", "ALICE", SEED_PASSWORD, "acme");
    assert.equal(status, 200);
    assert.equal(body.message, "Success");
    assert.match(body.token ?? "", /^[A-Za-z0-9_-]{43}$/);
  });

  test("a vendor signs in by user ID and password alone", async () => {
    const { body } = await signIn("vendor", "Vera");
    assert.equal(body.message, "Success");
    assert.ok(body.token);
  });

  test("an unknown user and a wrong password both get 200 {} with no token and no message", async () => {
    const attempts = [
      signIn("client", "nobody"),
      signIn("client", "alice", "Wrong-Password-1!"),
      signIn("client", "alice", SEED_PASSWORD, "GLOBEX"),
      signIn("vendor", "nobody"),
      signIn("vendor", "vera", "Wrong-Password-1!"),
      signIn("vendor", "alice"),
    ];
    for (const answer of await Promise.all(attempts)) {
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body, {});
    }
  });

  test("an account whose password has expired signs in with the message Password Expired", async () => {
    const { body } = await signIn("vendor", "petra");
    assert.equal(body.message, "Password Expired");
    assert.ok(body.token);
  });

  test("a deactivated account gets the message Deactivated and a token that authorizes nothing", async () => {
    for (const [site, username] of [
      ["client", "dora"],
      ["vendor", "dmitri"],
    ] as const) {
      const { body } = await signIn(site, username);
      assert.equal(body.message, "Deactivated");
      assert.ok(body.token);
      const generate = await call("POST", `/web/${site}/mfa/generate`, { token: body.token });
      assert.equal(generate.status, 401);
    }
    assert.deepEqual((await signIn("client", "dora", "Wrong-Password-1!")).body, {});
  });

  test("a sign-in body that breaks the schema is answered 400 with one error per field, never 500", async () => {
    const cases: [string, CallOptions, string][] = [
      ["/auth/client", { body: { shortname: "ACME", username: "alice" } }, "password"],
      ["/auth/client", { body: { shortname: "", username: "alice", password: "x" } }, "shortname"],
      ["/auth/client", { body: { shortname: "ACME", username: "alice", password: "x", role: "admin" } }, "role"],
      ["/auth/client", { body: { shortname: "ACME", username: 7, password: "x" } }, "username"],
      ["/auth/vendor", { body: { username: "v".repeat(129), password: "x" } }, "username"],
      ["/auth/vendor", { body: ["vera"] }, "body"],
      ["/auth/vendor", { raw: "{not json" }, "body"],
      ["/auth/vendor", {}, "body"],
    ];
    for (const [path, options, field] of cases) {
      const answer = await call<Schemas["ErrorAnswer"]>("POST", path, options);
      assert.equal(answer.status, 400, `${path} ${JSON.stringify(options)}`);
      assert.equal(typeof answer.body.errors?.[field], "string", `errors.${field} in ${JSON.stringify(answer.body)}`);
    }
  });
});

describe("bearer tokens", () => {
  test("calls under /web without a token, with an unknown token or with a malformed header answer 401 Unauthorized", async () => {
    for (const token of [undefined, "not-a-token", ""]) {
      const answer = await call("GET", "/web/client/user-info", { token });
      assert.equal(answer.status, 401);
      assert.deepEqual(answer.body, { detail: "Unauthorized" });
    }
  });

  test("a token works only on its own site: another site segment answers 403 Access Denied", async () => {
    const vendorToken = await unverifiedToken("vendor", "vince");
    const answer = await call("POST", "/web/client/mfa/generate", { token: vendorToken });
    assert.equal(answer.status, 403);
    assert.deepEqual(answer.body, { detail: "Access Denied" });
    const clientToken = await verifiedByLink("client", "alice");
    assert.equal((await call("GET", "/web/vendor/user-info", { token: clientToken })).status, 403);
    assert.equal((await call("POST", "/web/vendor/password/test", { token: clientToken, body: {} })).status, 403);
  });

  test("an unverified token answers 401 on user-info, track, password test and change", async () => {
    const token = await unverifiedToken("client", "alice");
    const calls = [
      call("GET", "/web/client/user-info", { token }),
      call("POST", "/web/track", { token, body: { page: "/client/home" } }),
      call("POST", "/web/client/password/test", { token, body: { userId: "alice", password: SEED_PASSWORD } }),
      call("POST", "/web/client/password/change", { token, body: { password: "Another-Pass-2026!" } }),
    ];
    for (const answer of await Promise.all(calls)) assert.equal(answer.status, 401);
  });

  test("a token expires after 8 hours", async () => {
    const token = await verifiedByLink("client", "alice");
    clock += 8 * 60 * MINUTE - 1;
    assert.equal((await call("GET", "/web/client/user-info", { token })).status, 200);
    clock += 1;
    assert.equal((await call("GET", "/web/client/user-info", { token })).status, 401);
  });

  test("revoking a user's tokens makes them answer 401", async () => {
    const token = await verifiedByLink("vendor", "vera");
    const revoke = await call<{ revoked: number }>("POST", "/sandbox/tokens/revoke", {
      body: { site: "vendor", username: "vera" },
    });
    assert.ok(revoke.body.revoked >= 1);
    assert.equal((await call("GET", "/web/vendor/user-info", { token })).status, 401);
  });
});

describe("multi-factor verification", () => {
  test("generate e-mails a six-digit code and the code from the e-mail passes and verifies the token", async () => {
    const token = await unverifiedToken("client", "gary", SEED_PASSWORD, "GLOBEX");
    const generate = await call("POST", "/web/client/mfa/generate", { token });
    assert.deepEqual([generate.status, generate.body], [200, { ok: true }]);
    const [mail] = await mailsTo("gary@globex.example");
    assert.equal(mail?.subject, "Your verification code");
    const code = await latestCode("gary@globex.example");
    assert.deepEqual((await validate("client", token, code)).body, [{ text: "Passed" }]);
    assert.equal((await call("GET", "/web/client/user-info", { token })).status, 200);
  });

  test("a wrong code fails and leaves the token unverified", async () => {
    const token = await unverifiedToken("vendor", "vince");
    await call("POST", "/web/vendor/mfa/generate", { token });
    const code = await latestCode("vince@vendor.example");
    assert.deepEqual((await validate("vendor", token, otherCode(code))).body, [{ text: "Failed" }]);
    assert.equal((await call("GET", "/web/vendor/user-info", { token })).status, 401);
    assert.deepEqual((await validate("vendor", token, code)).body, [{ text: "Passed" }]);
  });

  test("a code expires 10 minutes after it was generated", async () => {
    const token = await unverifiedToken("client", "paula");
    await call("POST", "/web/client/mfa/generate", { token });
    const code = await latestCode("paula@acme.example");
    clock += 10 * MINUTE;
    assert.deepEqual((await validate("client", token, code)).body, [{ text: "Failed" }]);
  });

  test("Send Again replaces the code: the earlier code fails and the newest passes", async () => {
    const token = await unverifiedToken("client", "paula");
    await call("POST", "/web/client/mfa/generate", { token });
    const first = await latestCode("paula@acme.example");
    await call("POST", "/web/client/mfa/generate", { token });
    const second = await latestCode("paula@acme.example");
    if (first !== second) assert.deepEqual((await validate("client", token, first)).body, [{ text: "Failed" }]);
    assert.deepEqual((await validate("client", token, second)).body, [{ text: "Passed" }]);
  });

  test("the device memory: the last accepted code passes silently at the next sign-in, for that user only", async () => {
    const remembered = await latestCode("paula@acme.example");
    const mailCount = (await mailsTo("paula@acme.example")).length;
    const token = await unverifiedToken("client", "paula");
    assert.deepEqual((await validate("client", token, remembered)).body, [{ text: "Passed" }]);
    assert.equal((await mailsTo("paula@acme.example")).length, mailCount, "no new code was needed");
    const otherUser = await unverifiedToken("client", "victor");
    assert.deepEqual((await validate("client", otherUser, remembered)).body, [{ text: "Failed" }]);
  });

  test("after ten wrong codes a token validates nothing, not even the right code", async () => {
    const token = await unverifiedToken("client", "victor");
    await call("POST", "/web/client/mfa/generate", { token });
    const code = await latestCode("victor@acme.example");
    for (let attempt = 0; attempt < 10; attempt++) await validate("client", token, otherCode(code));
    assert.deepEqual((await validate("client", token, code)).body, [{ text: "Failed" }]);
  });

  test("a code longer than 8 characters is a bad request", async () => {
    const token = await unverifiedToken("client", "victor");
    const answer = await call<Schemas["ErrorAnswer"]>("POST", "/web/client/mfa/validate/123456789", { token });
    assert.equal(answer.status, 400);
    assert.ok(answer.body.errors?.code);
  });
});

describe("login by link", () => {
  test("a sign-in link is e-mailed as the portal's /login URL with the uuid and the type Vendor or Client", async () => {
    const vendor = await linkLogin("vendor", "vince");
    assert.equal(vendor.url, `${PORTAL_URL}/login?uuid=${vendor.uuid}&type=Vendor`);
    const [mail] = await mailsTo("vince@vendor.example");
    assert.ok(mail?.body.includes(vendor.url));
    const client = await linkLogin("client", "alice");
    assert.equal(client.url, `${PORTAL_URL}/login?uuid=${client.uuid}&type=Client`);
  });

  test("a link signs in once with an already verified token; a second use gets {}", async () => {
    const { uuid } = await linkLogin("client", "victor");
    const first = await call<Schemas["LinkLoginResponse"]>("POST", `/auth/client-token?uuid=${uuid}`);
    assert.ok(first.body.token);
    assert.equal((await call("GET", "/web/client/user-info", { token: first.body.token })).status, 200);
    assert.deepEqual((await call("POST", `/auth/client-token?uuid=${uuid}`)).body, {});
  });

  test("a link works only at its own site's endpoint, for 24 hours, and never for a deactivated user", async () => {
    const { uuid } = await linkLogin("client", "alice");
    assert.deepEqual((await call("POST", `/auth/vendor-token?uuid=${uuid}`)).body, {});
    clock += 24 * 60 * MINUTE;
    assert.deepEqual((await call("POST", `/auth/client-token?uuid=${uuid}`)).body, {});
    const dora = await linkLogin("client", "dora");
    assert.deepEqual((await call("POST", `/auth/client-token?uuid=${dora.uuid}`)).body, {});
  });

  test("an unknown uuid gets {}, a missing uuid is a bad request and an unknown user cannot get a link", async () => {
    assert.deepEqual((await call("POST", "/auth/vendor-token?uuid=00000000-0000-0000-0000-000000000000")).body, {});
    assert.equal((await call("POST", "/auth/vendor-token")).status, 400);
    const unknown = await call("POST", "/sandbox/link-login", { body: { site: "vendor", username: "nobody" } });
    assert.deepEqual([unknown.status, unknown.body], [404, { detail: "Not Found" }]);
  });

  test("the mailbox page's form e-mails a sign-in link and redirects back with 303", async () => {
    const before = (await mailsTo("vera@vendor.example")).length;
    const answer = await call("POST", "/sandbox/mail/link", {
      raw: "site=vendor&username=vera",
      contentType: "application/x-www-form-urlencoded",
    });
    assert.equal(answer.status, 303);
    assert.equal(answer.headers.get("location"), "/sandbox/mail?link=sent");
    assert.equal((await mailsTo("vera@vendor.example")).length, before + 1);
  });
});

describe("password reset, test and change", () => {
  test("reset e-mails a one-time link and no password; the old password works until the link sets a new one", async () => {
    const reset = await call("POST", "/web/reset-pwd", {
      body: { clientShortName: "acme", emailAddress: "VICTOR@acme.example" },
    });
    assert.deepEqual([reset.status, reset.body], [200, { ok: true }]);
    const [mail] = await mailsTo("victor@acme.example");
    assert.equal(mail?.subject, RESET_SUBJECT);
    const path = resetLinkPath(mail?.body ?? "");
    assert.ok(mail?.body.includes(`${PORTAL_URL}${path}`), "the link is the portal's address");
    assert.doesNotMatch(mail?.body ?? "", /password is/i);
    assert.equal((await signIn("client", "victor")).body.message, "Success", "the old password still works");
    const form = await call<string>("GET", path);
    assert.equal(form.status, 200);
    assert.equal(form.headers.get("cache-control"), "no-store");
    const set = await call("POST", "/sandbox/reset", {
      raw: resetForm(path, "Victor-New-2026!").toString(),
      contentType: "application/x-www-form-urlencoded",
    });
    assert.deepEqual([set.status, set.headers.get("location")], [303, "/sandbox/reset/done"]);
    assert.deepEqual((await signIn("client", "victor")).body, {}, "the old password no longer works");
    assert.equal((await signIn("client", "victor", "Victor-New-2026!")).body.message, "Success");
    await verifiedBySignIn("client", "victor", "victor@acme.example", "Victor-New-2026!");
  });

  test("reset finds a vendor by e-mail alone", async () => {
    const before = (await mailsTo("vince@vendor.example")).length;
    await call("POST", "/web/reset-pwd", { body: { clientShortName: "", emailAddress: "vince@vendor.example" } });
    const mails = await mailsTo("vince@vendor.example");
    assert.equal(mails.length, before + 1);
    assert.equal(mails[0]?.subject, RESET_SUBJECT);
  });

  test("reset answers 200 ok and sends nothing when no active account matches", async () => {
    const bodies = [
      { clientShortName: "", emailAddress: "nobody@vendor.example" },
      { clientShortName: "GLOBEX", emailAddress: "alice@acme.example" },
      { clientShortName: "ACME", emailAddress: "vera@vendor.example" },
      { clientShortName: "ACME", emailAddress: "dora@acme.example" },
    ];
    for (const body of bodies) {
      const answer = await call("POST", "/web/reset-pwd", { body });
      assert.deepEqual([answer.status, answer.body], [200, { ok: true }]);
    }
    for (const to of ["alice@acme.example", "dora@acme.example", "vera@vendor.example"]) {
      const resetMails = (await mailsTo(to)).filter((mail) => mail.subject === RESET_SUBJECT);
      assert.equal(resetMails.length, 0, to);
    }
    assert.equal((await call("POST", "/web/reset-pwd", { body: { clientShortName: "ACME" } })).status, 400);
  });

  test("the password test refuses a wrong password or another user's ID with 400 and a description", async () => {
    const token = await verifiedByLink("client", "alice");
    for (const body of [
      { userId: "alice", password: "Wrong-Password-1!" },
      { userId: "gary", password: SEED_PASSWORD },
    ]) {
      const answer = await call("POST", "/web/client/password/test", { token, body });
      assert.deepEqual([answer.status, answer.body], [400, { description: "The current password is not correct." }]);
    }
    assert.equal((await call("POST", "/web/client/password/test", { token, body: { userId: "alice" } })).status, 400);
  });

  test("a password change refuses a password that breaks the rules or equals the current one", async () => {
    const token = await verifiedByLink("vendor", "petra");
    const cases = [
      ["short-1A!", "Password does not meet password requirements"],
      ["nouppercase-2026!", "Password does not meet password requirements"],
      ["No-Digits-At-All!", "Password does not meet password requirements"],
      ["NoSpecial2026abc", "Password does not meet password requirements"],
      [SEED_PASSWORD, "The new password must differ from the current one."],
    ];
    for (const [password, message] of cases) {
      const answer = await call("POST", "/web/vendor/password/change", { token, body: { password } });
      assert.deepEqual([answer.status, answer.body], [400, { errors: { password: message } }]);
    }
    assert.equal(
      (await call("POST", "/web/vendor/password/change", { token, body: { password: "Petra-Fresh-2026?" } })).status,
      200,
    );
    assert.equal((await signIn("vendor", "petra", "Petra-Fresh-2026?")).body.message, "Success");
  });
});

describe("permissions and page tracking", () => {
  test("each active seed account's permissions come back as UserInfo with loaded true", async () => {
    for (const account of seedAccounts.filter((seed) => seed.loginMessage !== "Deactivated")) {
      const token = await verifiedByLink(account.site, account.username);
      const answer = await call<Schemas["UserInfo"]>("GET", `/web/${account.site}/user-info`, { token });
      assert.deepEqual(answer.body, { loaded: true, ...account.permissions }, account.username);
    }
    const byName = new Map(seedAccounts.map((account) => [account.username, account.permissions]));
    assert.equal(byName.get("alice")?.isAdmin, true);
    assert.deepEqual(byName.get("victor")?.clientServices, ["1894"]);
    assert.equal(byName.get("victor")?.viewOnly, true);
    assert.equal(byName.get("gary")?.vipTier, "1");
    assert.ok(!byName.get("gary")?.clientServices.includes("88689"));
    assert.deepEqual(byName.get("vera")?.beneServices, ["60562"]);
    assert.equal(byName.get("vince")?.userTier, "0");
  });

  test("the sandbox can change part of a user's permissions, and refuses unknown users and bad values", async () => {
    const answer = await call<Schemas["UserInfo"]>("PUT", "/sandbox/users/vendor/-/vince/permissions", {
      body: { userTier: "1", beneServices: ["60562"] },
    });
    assert.equal(answer.status, 200);
    const token = await verifiedByLink("vendor", "vince");
    const info = await call<Schemas["UserInfo"]>("GET", "/web/vendor/user-info", { token });
    assert.deepEqual([info.body.userTier, info.body.beneServices, info.body.isAdmin], ["1", ["60562"], false]);
    const gary = await call("PUT", "/sandbox/users/client/globex/gary/permissions", { body: { vipTier: "3" } });
    assert.equal(gary.status, 200);
    assert.equal((await call("PUT", "/sandbox/users/client/-/gary/permissions", { body: {} })).status, 404);
    assert.equal(
      (await call("PUT", "/sandbox/users/client/ACME/alice/permissions", { body: { vipTier: "high" } })).status,
      400,
    );
    assert.equal(
      (await call("PUT", "/sandbox/users/client/ACME/alice/permissions", { body: { power: 1 } })).status,
      400,
    );
  });

  test("a page visit is stored with user, site, page and time, and listed oldest first", async () => {
    const token = await verifiedByLink("client", "gary");
    const at = new Date(clock).toISOString();
    for (const page of ["/client/home", "/client/vip/dashboard"]) {
      const answer = await call("POST", "/web/track", { token, body: { page } });
      assert.deepEqual([answer.status, answer.body], [200, { ok: true }]);
    }
    const visits = (await call<VisitRecord[]>("GET", "/sandbox/visits.json")).body;
    assert.deepEqual(visits.slice(-2), [
      { username: "gary", site: "client", page: "/client/home", at },
      { username: "gary", site: "client", page: "/client/vip/dashboard", at },
    ]);
    assert.equal((await call("POST", "/web/track", { token, body: { page: "" } })).status, 400);
  });
});

describe("documents and the mailbox", () => {
  test("each PDF is served without sign-in as a PDF 1.4 file whose cross-reference offsets point at its objects", async () => {
    for (const name of ["BankHolidays.pdf", "ExpiringInvoicesPolicy.pdf", "VendorLetter.pdf"]) {
      const response = await fetch(`${sandbox.url}/pdfs/${name}`);
      assert.equal(response.status, 200);
      assert.equal(response.headers.get("content-type"), "application/pdf");
      const pdf = Buffer.from(await response.arrayBuffer()).toString("latin1");
      assert.ok(pdf.startsWith("%PDF-1.4"));
      assert.ok(pdf.trimEnd().endsWith("%%EOF"));
      assert.ok(pdf.includes("Sandbox sample content"));
      const startxref = Number(/startxref\n(\d+)\n%%EOF\s*$/.exec(pdf)?.[1]);
      assert.equal(pdf.slice(startxref, startxref + 5), "xref\n");
      const [, first, count] = /^xref\n(\d+) (\d+)\n/.exec(pdf.slice(startxref)) ?? [];
      assert.equal(first, "0");
      const table = pdf
        .slice(startxref)
        .split("\n")
        .slice(2, 2 + Number(count));
      table.slice(1).forEach((entry, index) => {
        const offset = Number(entry.slice(0, 10));
        assert.equal(
          pdf.slice(offset, offset + `${index + 1} 0 obj`.length),
          `${index + 1} 0 obj`,
          `${name} object ${index + 1}`,
        );
      });
    }
    const missing = await call("GET", "/pdfs/Secrets.pdf");
    assert.deepEqual([missing.status, missing.body], [404, { detail: "Not Found" }]);
  });

  test("mail.json lists mails newest first, filtered by recipient without regard to case", async () => {
    const all = (await call<StoredMail[]>("GET", "/sandbox/mail.json")).body;
    assert.ok(all.length > 5);
    const times = all.map((mail) => mail.sentAt);
    assert.deepEqual(times, [...times].sort().reverse());
    const vera = await mailsTo("VERA@vendor.example");
    assert.ok(vera.length > 0 && vera.every((mail) => mail.to === "vera@vendor.example"));
  });

  test("the mailbox page explains itself, lists the mail and escapes what it shows", async () => {
    const page = await call<string>("GET", "/sandbox/mail?link=sent");
    assert.equal(page.status, 200);
    assert.match(page.headers.get("content-type") ?? "", /^text\/html/);
    assert.ok(page.body.includes("mailbox of the portal's sandbox upstream"));
    assert.ok(page.body.includes('action="/sandbox/mail/link"'));
    assert.ok(page.body.includes("Your sign-in link"));
    const html = renderMailPage({
      mails: [
        {
          id: 1,
          to: "x@example",
          subject: "<script>alert(1)</script>",
          body: "a & b",
          sentAt: "2026-01-01T00:00:00.000Z",
        },
      ],
      accounts: [],
      seedPassword: SEED_PASSWORD,
      notice: undefined,
    });
    assert.ok(!html.includes("<script>") && html.includes("&lt;script&gt;") && html.includes("a &amp; b"));
  });

  test("an unknown path answers 404 Not Found as JSON", async () => {
    const answer = await call("GET", "/web/client/nothing-here");
    assert.deepEqual([answer.status, answer.body], [404, { detail: "Not Found" }]);
  });
});

describe("durability", () => {
  test("what the sandbox stored survives a restart on the same file, and the seed is not run again", async () => {
    const directory = mkdtempSync(join(tmpdir(), "sandbox-test-"));
    const dbPath = join(directory, "not-yet-there", "sandbox.db");
    const options = { dbPath, portalUrl: PORTAL_URL, now: () => clock };
    try {
      const first = await startSandbox(options);
      const base = first.url;
      await call("PUT", "/sandbox/users/client/ACME/alice/permissions", { base, body: { vipTier: "7" } });
      const token = await verifiedByLink("client", "alice", base);
      await call("POST", "/web/track", { base, token, body: { page: "/client/inbox" } });
      await first.close();

      const second = await startSandbox(options);
      try {
        const info = await call<Schemas["UserInfo"]>("GET", "/web/client/user-info", { base: second.url, token });
        assert.equal(info.body.vipTier, "7", "the changed permission and the token survived, so no re-seed");
        const mails = await call<StoredMail[]>("GET", "/sandbox/mail.json?to=alice@acme.example", { base: second.url });
        assert.equal(mails.body.length, 1);
        const visits = await call<VisitRecord[]>("GET", "/sandbox/visits.json", { base: second.url });
        assert.deepEqual(
          visits.body.map((visit) => visit.page),
          ["/client/inbox"],
        );
      } finally {
        await second.close();
      }
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
