// The `/mfa` route's island: the same multi-factor step as the login page, where no password is known.
import { MfaStep } from "#web/components/mfa-step.tsx";
import type { FormNote } from "#web/protocol/form-answer.ts";
import type { LoginMessage, Site } from "#web/site.ts";

export type MfaIslandProps = {
  site: Site;
  /** The client's company short name; empty for a vendor. */
  company: string;
  userName: string;
  loginMessage: LoginMessage;
  landing: string;
  /** The code form posted before the script arrived, sent back with this note. */
  note?: FormNote;
  /** Not opened by the person: no code is sent as the step opens (web/components/mfa-step.tsx). */
  quiet?: true;
};

export default function MfaIsland({ site, company, userName, loginMessage, landing, note, quiet }: MfaIslandProps) {
  return (
    <div className="login-box">
      <MfaStep
        site={site}
        company={company}
        userName={userName}
        loginMessage={loginMessage}
        landing={landing}
        {...(note ? { note } : {})}
        {...(quiet ? { quiet } : {})}
      />
    </div>
  );
}
