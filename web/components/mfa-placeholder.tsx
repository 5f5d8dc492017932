// The multi-factor step's place while its chunk loads (and as the server renders it): the step's size, busy.
import { BusyOverlay } from "#web/components/note.tsx";
import { loginTexts } from "#web/texts/login-screen.ts";

/** Its own texts stay in the step's chunk: the login page's first load carries only what it shows. */
export function MfaPlaceholder() {
  return (
    <div className="mfa-step mfa-placeholder">
      <BusyOverlay text={loginTexts.authenticating} />
    </div>
  );
}
