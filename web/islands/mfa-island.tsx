// The `/mfa` route's island: the same multi-factor step as the login page, where no password is known.
import { MfaStep } from "#web/components/mfa-step.tsx";
import type { LoginMessage, Site } from "#web/site.ts";

export type MfaIslandProps = { site: Site; userName: string; loginMessage: LoginMessage; landing: string };

export default function MfaIsland({ site, userName, loginMessage, landing }: MfaIslandProps) {
  return (
    <div className="login-box">
      <MfaStep site={site} userName={userName} loginMessage={loginMessage} landing={landing} />
    </div>
  );
}
