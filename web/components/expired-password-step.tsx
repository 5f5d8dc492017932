// The step of a sign-in whose password has expired (requirements 2.4, 4.4): the change-password form, then the way out.
// The same screen whether it follows the code on the login page or the page is loaded again at /mfa.
import { ChangePasswordForm } from "#web/components/change-password-form.tsx";
import { UseAnotherAccount } from "#web/components/use-another-account.tsx";
import type { FormNote } from "#web/protocol/form-answer.ts";
import type { Site } from "#web/site.ts";
import { mfaTexts } from "#web/texts/mfa.ts";

export type ExpiredPasswordStepProps = {
  site: Site;
  userName: string;
  /** The password typed at sign-in, when this page still holds it: a reload does not (it is never stored). */
  password?: string;
  headingId: string;
  focusOnMount?: boolean;
  /** The form posted before the script arrived, sent back with these notes. */
  notes?: FormNote[];
};

export function ExpiredPasswordStep(props: ExpiredPasswordStepProps) {
  const { site, userName, password, headingId, focusOnMount, notes } = props;
  return (
    <section className="mfa-step" aria-labelledby={headingId}>
      <ChangePasswordForm
        audience={site}
        userName={userName}
        redirect
        notice={mfaTexts.passwordExpired}
        headingId={headingId}
        focusOnMount={focusOnMount === true}
        action="/mfa"
        {...(notes ? { notes } : {})}
        {...(password ? { currentPassword: password } : { currentHint: mfaTexts.currentPasswordAgain })}
      />
      <UseAnotherAccount site={site} userName={userName} />
    </section>
  );
}
