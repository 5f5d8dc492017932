// The page a person's form another site posted is answered with (server/loaders/public.tsx `refusedForm`): asserted
// alike for the session scope's forms and the sandbox's relayed ones.
import assert from "node:assert/strict";
import type { PortalAnswer } from "#harness/portal-client.ts";
import { accessTexts } from "#web/texts/access.ts";
import { documentTitle } from "#web/texts/document-title.ts";
import { errorTexts } from "#web/texts/errors.ts";

/** Section 8's 403 in the portal's frame: what happened in its words, a way back to sign-in, the pages' headers. */
export function assertRefusedPage(answer: PortalAnswer, where: string): void {
  assert.equal(answer.status, 403, where);
  assert.match(String(answer.headers["content-type"]), /^text\/html/, where);
  assert.ok(answer.text.includes(`<title>${documentTitle(errorTexts.accessDenied)}</title>`), where);
  assert.match(answer.text, new RegExp(`<h1>${errorTexts.accessDenied}</h1>`), where);
  assert.ok(answer.text.includes(escaped(accessTexts.crossSiteForm)), `${where}: what happened, in the portal's words`);
  assert.match(answer.text, /<a href="\/">/, `${where}: the way back to sign-in, or on to the person's section`);
  assert.match(answer.text, /<header class="site-header">/, `${where}: in the portal's frame`);
  // The pages' policy, whatever route refused it: its stylesheet and nonce load, nothing else does.
  const policy = String(answer.headers["content-security-policy"]);
  assert.match(policy, /style-src 'self' 'nonce-[^']+'/, `${where}: ${policy}`);
  assert.match(policy, /form-action 'self'/, where);
  assert.equal(answer.headers["x-content-type-options"], "nosniff", where);
}
const escaped = (text: string) => text.replaceAll("'", "&#x27;");
