// "Use another account": cancels a sign-in that has not finished (the MFA step, or the change of an expired password).

import type { Site } from "#web/site.ts";
import { forgetPending } from "#web/state/sign-in-undo.ts";
import { mfaTexts } from "#web/texts/mfa.ts";

/**
 * Cancels the sign-in (the session ends on the server) and opens the sign-in page afresh: never a dead end. What the
 * sign-in had this device remember is taken back first, so the page offers what it offered before.
 */
export function UseAnotherAccount({ site, userName }: { site: Site; userName: string }) {
  return (
    <form
      method="post"
      action="/session/logout"
      className="use-another-account"
      onSubmit={() => forgetPending(site, userName)}
    >
      <input type="hidden" name="intent" value="use-another-account" />
      <button type="submit" className="link-button">
        {mfaTexts.useAnotherAccount}
      </button>
    </form>
  );
}
