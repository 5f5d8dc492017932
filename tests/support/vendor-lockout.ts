// Vince (a vendor) sends two wrong MFA codes in a row, which locks him out: a step the log tests share.
import type { PortalClient } from "#harness/portal-client.ts";
import { DEMO_PASSWORD } from "#harness/sign-in.ts";

/**
 * Signs vince in on `vince` and sends a wrong code twice; the wrong code joins `secrets`, the strings the logs must
 * never carry.
 */
export async function lockOutVince(
  vince: PortalClient,
  code: (email: string) => Promise<string>,
  secrets: Set<string>,
): Promise<void> {
  await vince.post("/api/auth/vendor", { username: "vince", password: DEMO_PASSWORD });
  await vince.post("/api/web/vendor/mfa/generate");
  const right = await code("vince@vendor.example");
  const wrong = right === "000000" ? "111111" : "000000";
  secrets.add(wrong);
  await vince.post(`/api/web/vendor/mfa/validate/${wrong}`);
  await vince.post(`/api/web/vendor/mfa/validate/${wrong}`);
}
