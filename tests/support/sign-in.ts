// Signs a user in over HTTP without a browser (password, e-mailed code, Passed) and carries the session cookie.
import assert from "node:assert/strict";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { DEMO_PASSWORD, latestCode } from "#tests/support/portal.ts";
import { CSRF_HEADER } from "#web/api/held.ts";

export type Account =
  | { site: "client"; shortname: string; username: string; email: string }
  | { site: "vendor"; username: string; email: string };

/** The seed accounts of the sandbox that can sign in (server/sandbox/seed.ts). */
export const accounts = {
  alice: { site: "client", shortname: "ACME", username: "alice", email: "alice@acme.example" },
  victor: { site: "client", shortname: "ACME", username: "victor", email: "victor@acme.example" },
  gary: { site: "client", shortname: "GLOBEX", username: "gary", email: "gary@globex.example" },
  paula: { site: "client", shortname: "ACME", username: "paula", email: "paula@acme.example" },
  vera: { site: "vendor", username: "vera", email: "vera@vendor.example" },
  vince: { site: "vendor", username: "vince", email: "vince@vendor.example" },
  petra: { site: "vendor", username: "petra", email: "petra@vendor.example" },
} as const satisfies Record<string, Account>;

type Method = "GET" | "POST" | "PUT" | "DELETE" | "HEAD";

/** A browser's cookie jar for the portal's one session cookie, over `app.inject` (no port needed). */
export class PortalVisitor {
  cookies = new Map<string, string>();

  constructor(private readonly app: FastifyInstance) {}

  get cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join("; ");
  }

  async request(method: Method, url: string, body?: unknown): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { [CSRF_HEADER]: "1" };
    if (this.cookies.size > 0) headers.cookie = this.cookieHeader;
    if (body !== undefined) headers["content-type"] = "application/json";
    const response = await this.app.inject({
      method,
      url,
      headers,
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });
    for (const cookie of response.cookies) {
      if (cookie.value === "" || cookie.maxAge === 0) this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    return response;
  }

  get(url: string): Promise<LightMyRequestResponse> {
    return this.request("GET", url);
  }

  post(url: string, body?: unknown): Promise<LightMyRequestResponse> {
    return this.request("POST", url, body);
  }
}

/** Password, then the e-mailed code: the session the answer leaves is signed in (or at the forced password change). */
export async function signIn(
  portal: { app: FastifyInstance; sandboxUrl: string },
  account: Account,
  password = DEMO_PASSWORD,
): Promise<PortalVisitor> {
  const visitor = new PortalVisitor(portal.app);
  const login =
    account.site === "client"
      ? { shortname: account.shortname, username: account.username, password }
      : { username: account.username, password };
  const answer = await visitor.post(`/api/auth/${account.site}`, login);
  assert.equal(answer.statusCode, 200, `${account.username} signs in: ${answer.body}`);
  assert.equal(answer.json().tokenHeld, true, `${account.username} holds a token`);
  const generated = await visitor.post(`/api/web/${account.site}/mfa/generate`);
  assert.equal(generated.statusCode, 200, `a code is sent to ${account.email}`);
  const code = await latestCode(portal.sandboxUrl, account.email);
  const verdict = await visitor.post(`/api/web/${account.site}/mfa/validate/${code}`);
  assert.deepEqual(verdict.json(), [{ text: "Passed" }], `${account.username}'s code passes`);
  return visitor;
}
