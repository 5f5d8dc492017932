// The change-password pages' island (requirements 2.5): the form with its heading, password rules and notes. At /mfa,
// for a sign-in whose password has expired, it is that step of the sign-in (`expired`), as the login page shows it
// after the code: a reload of the step shows the same screen.
import { ChangePasswordForm } from "#web/components/change-password-form.tsx";
import { ExpiredPasswordStep } from "#web/components/expired-password-step.tsx";
import type { FormNote } from "#web/protocol/form-answer.ts";
import type { Site } from "#web/site.ts";

export type ChangePasswordIslandProps =
  | {
      audience: Site;
      userName?: string;
      redirect: boolean;
      headingLevel?: 1 | 2;
      currentPassword?: string;
      notice?: string;
      notes?: FormNote[];
    }
  | { expired: { site: Site; userName: string; notes?: FormNote[] } };

export default function ChangePasswordIsland(props: ChangePasswordIslandProps) {
  if ("expired" in props)
    return (
      <div className="login-box">
        <ExpiredPasswordStep {...props.expired} headingId="mfa-heading" />
      </div>
    );
  return <ChangePasswordForm {...props} />;
}
