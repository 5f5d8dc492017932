// Signs a user in over HTTP without a browser, as the islands do: password, then the code, which must pass. The code
// comes from the sandbox's mailbox, or is the fixed code the fake upstream (harness/fake-upstream.ts) passes.
import assert from "node:assert/strict";
import { PortalClient, type PortalTarget } from "#harness/portal-client.ts";
import { SEED_PASSWORD } from "#sandbox/seed.ts";
import { TAX_BRIDGE_HEADER } from "#web/protocol/headers.ts";

/** The password of every seed account of the sandbox, which the fake upstream takes too. */
export const DEMO_PASSWORD = SEED_PASSWORD;

export type Account =
  | { site: "client"; shortname: string; username: string; email: string }
  | { site: "vendor"; username: string; email: string };

/** The seed accounts of the sandbox that can sign in (sandbox/seed.ts); the fake upstream takes any. */
export const accounts = {
  alice: { site: "client", shortname: "ACME", username: "alice", email: "alice@acme.example" },
  victor: { site: "client", shortname: "ACME", username: "victor", email: "victor@acme.example" },
  gary: { site: "client", shortname: "GLOBEX", username: "gary", email: "gary@globex.example" },
  /** GLOBEX's alice: another person than ACME's, with the same user ID. */
  globexAlice: { site: "client", shortname: "GLOBEX", username: "alice", email: "alice@globex.example" },
  paula: { site: "client", shortname: "ACME", username: "paula", email: "paula@acme.example" },
  vera: { site: "vendor", username: "vera", email: "vera@vendor.example" },
  vince: { site: "vendor", username: "vince", email: "vince@vendor.example" },
  petra: { site: "vendor", username: "petra", email: "petra@vendor.example" },
} as const satisfies Record<string, Account>;

/** How the sign-in obtains the code it enters, once the portal has asked for one to be sent. */
export type CodeSource = (account: Account) => Promise<string>;

type Mail = { id: number; to: string; subject: string; body: string; sentAt: string };

/** The newest e-mail the sandbox sent to this address. */
export async function latestMail(sandboxUrl: string, to: string): Promise<Mail> {
  const response = await fetch(`${sandboxUrl}/sandbox/mail.json?to=${encodeURIComponent(to)}`);
  const mails = (await response.json()) as Mail[];
  const [mail] = mails;
  if (!mail) throw new Error(`no mail to ${to}`);
  return mail;
}

/** The 6-digit code of the newest verification e-mail to this address. */
export async function latestCode(sandboxUrl: string, to: string): Promise<string> {
  const { body } = await latestMail(sandboxUrl, to);
  const code = /\b(\d{6})\b/.exec(body)?.[1];
  if (!code) throw new Error(`no code in the mail to ${to}`);
  return code;
}

/** The code the sandbox at `sandboxUrl` e-mailed to the account. */
export const mailboxCode =
  (sandboxUrl: string): CodeSource =>
  (account) =>
    latestCode(sandboxUrl, account.email);

/** The fake upstream passes any code; this is the one entered. */
export const FAKE_UPSTREAM_CODE = "123456";
export const fakeUpstreamCode: CodeSource = async () => FAKE_UPSTREAM_CODE;

/**
 * Password, then the code: the client's session is then signed in (or at the forced password change). `via` is a
 * client to sign in, or where a new one sends its requests. Each step is checked; its three answers are the last
 * three of the client's `answers`.
 */
export function signIn(
  via: PortalClient | PortalTarget,
  account: Account,
  code: CodeSource,
  password = DEMO_PASSWORD,
): Promise<PortalClient> {
  return signInWith(via, account, code, password, {});
}

/** As `signIn`, from `/tax-bridge/login`'s form: its login call says the sign-in is in tax-bridge mode. */
export const signInAtTaxBridge = (via: PortalClient | PortalTarget, account: Account, code: CodeSource) =>
  signInWith(via, account, code, DEMO_PASSWORD, { [TAX_BRIDGE_HEADER]: "1" });

async function signInWith(
  via: PortalClient | PortalTarget,
  account: Account,
  code: CodeSource,
  password: string,
  loginHeaders: Record<string, string>,
): Promise<PortalClient> {
  const client = via instanceof PortalClient ? via : new PortalClient(via);
  const login =
    account.site === "client"
      ? { shortname: account.shortname, username: account.username, password }
      : { username: account.username, password };
  const answer = await client.post(`/api/auth/${account.site}`, login, loginHeaders);
  assert.equal(answer.status, 200, `${account.username} signs in: ${answer.text}`);
  assert.equal(answer.json().tokenHeld, true, `${account.username} holds a token`);
  const generated = await client.post(`/api/web/${account.site}/mfa/generate`);
  assert.equal(generated.status, 200, `a code is sent to ${account.email}`);
  const verdict = await client.post(`/api/web/${account.site}/mfa/validate/${await code(account)}`);
  assert.deepEqual(verdict.json(), [{ text: "Passed" }], `${account.username}'s code passes`);
  return client;
}
