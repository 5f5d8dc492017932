// The sandbox upstream on a clock the test moves, and the calls its tests make to it over real HTTP: sign-ins, codes
// read from its mailbox, tokens verified by code or by link.
import assert from "node:assert/strict";
import type { components } from "#openapi/schema.ts";
import { startSandbox } from "#sandbox/app.ts";
import type { StoredMail } from "#sandbox/mailbox.ts";
import { SEED_PASSWORD } from "#sandbox/seed.ts";

type Schemas = components["schemas"];
export type Site = Schemas["Site"];

export const MINUTE = 60_000;
/** The portal's address the sandbox writes into the links it mails. */
export const PORTAL_URL = "http://portal.test";

export interface Answer<T> {
  status: number;
  body: T;
  headers: Headers;
}

export interface CallOptions {
  body?: unknown;
  token?: string;
  /** Sent as is, for bodies that are not valid JSON. */
  raw?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

/** Time as the sandbox sees it: starts at a fixed instant and moves only when the test says. */
export class TestClock {
  now = Date.parse("2026-03-02T09:00:00.000Z");
  advance(ms: number): void {
    this.now += ms;
  }
}

/** A code that is none of the given ones. */
export function otherCode(...codes: string[]): string {
  let candidate = 0;
  while (codes.includes(String(candidate).padStart(6, "0"))) candidate++;
  return String(candidate).padStart(6, "0");
}

export class SandboxUnderTest {
  constructor(
    readonly url: string,
    readonly clock: TestClock,
    readonly close: () => Promise<void>,
  ) {}

  async call<T = unknown>(method: string, path: string, options: CallOptions = {}): Promise<Answer<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
    const payload = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    if (payload !== undefined) headers["content-type"] = options.contentType ?? "application/json";
    const response = await fetch(`${this.url}${path}`, { method, headers, body: payload, redirect: "manual" });
    const text = await response.text();
    const json = (response.headers.get("content-type") ?? "").includes("json") && text !== "";
    return { status: response.status, headers: response.headers, body: (json ? JSON.parse(text) : text) as T };
  }

  signIn(site: Site, username: string, password = SEED_PASSWORD, shortname = "ACME") {
    const body = site === "client" ? { shortname, username, password } : { username, password };
    return this.call<Schemas["LoginResponse"]>("POST", `/auth/${site}`, { body });
  }

  async mailsTo(to: string): Promise<StoredMail[]> {
    return (await this.call<StoredMail[]>("GET", `/sandbox/mail.json?to=${encodeURIComponent(to)}`)).body;
  }

  async latestCode(to: string): Promise<string> {
    const [mail] = await this.mailsTo(to);
    const code = /Your verification code is (\d{6})\. It expires in 10 minutes\./.exec(mail?.body ?? "")?.[1];
    assert.ok(code, `a verification code was e-mailed to ${to}`);
    return code;
  }

  generate(site: Site, token: string) {
    return this.call<Schemas["Acknowledgement"]>("POST", `/web/${site}/mfa/generate`, { token });
  }

  /** A validation, from the device whose id the portal sends (none: a browser the portal has no id for). */
  validate(site: Site, token: string, code: string, device?: string) {
    const headers: Record<string, string> = device === undefined ? {} : { "x-device-id": device };
    return this.call<Schemas["MfaVerdict"]>("POST", `/web/${site}/mfa/validate/${code}`, { token, headers });
  }

  async unverifiedToken(site: Site, username: string, password = SEED_PASSWORD, shortname = "ACME") {
    const { body } = await this.signIn(site, username, password, shortname);
    assert.ok(body.token, `${username} signed in`);
    return body.token;
  }

  /** Password sign-in, then the e-mailed code: the full path a user takes. */
  async verifiedBySignIn(site: Site, username: string, email: string, password = SEED_PASSWORD, device?: string) {
    const token = await this.unverifiedToken(site, username, password);
    assert.equal((await this.generate(site, token)).status, 200);
    const code = await this.latestCode(email);
    assert.deepEqual((await this.validate(site, token, code, device)).body, [{ text: "Passed" }]);
    return token;
  }

  async linkLogin(site: Site, username: string, shortname?: string) {
    const minted = await this.call<{ uuid: string; url: string }>("POST", "/sandbox/link-login", {
      body: { site, username, ...(shortname ? { shortname } : {}) },
    });
    assert.equal(minted.status, 200);
    return minted.body;
  }

  /** A verified token without a scrypt: the link-login way. */
  async verifiedByLink(site: Site, username: string, shortname?: string): Promise<string> {
    const { uuid } = await this.linkLogin(site, username, shortname);
    const { body } = await this.call<Schemas["LinkLoginResponse"]>("POST", `/auth/${site}-token?uuid=${uuid}`);
    assert.ok(body.token);
    return body.token;
  }
}

/** A listening sandbox, seeded, on `clock`; in memory unless a database file is given. */
export async function startSandboxUnderTest(
  options: { dbPath?: string; clock?: TestClock } = {},
): Promise<SandboxUnderTest> {
  const clock = options.clock ?? new TestClock();
  const running = await startSandbox({
    dbPath: options.dbPath ?? ":memory:",
    portalUrl: `${PORTAL_URL}/`,
    now: () => clock.now,
    testPasswordCost: true,
  });
  return new SandboxUnderTest(running.url, clock, running.close);
}
