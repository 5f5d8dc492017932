// "Last signed in Tuesday, 24 November 2026 at 10:42 GMT from Chrome on Windows", on each section's home, with the failed
// sign-in attempts since and a way to change the password when there were any, and the sign-ins made elsewhere after
// this session's own.
import { formatWhen } from "#web/components/when.ts";
import { accountTexts } from "#web/texts/account.ts";

/** A sign-in as the note names it: when, and the device label. */
export type SignInSeen = { at: number; device: string };

/** Failed sign-in attempts since the last sign-in: how many, and from how many addresses ("50+": `moreAddresses`). */
type FailedSince = { count: number; addresses: number; moreAddresses: boolean };

export type LastSignIn = {
  /** The sign-in before this session's own; none on a first sign-in. */
  previous?: SignInSeen;
  /** Sign-ins of the person's other sessions after this session's own, newest first. */
  later: SignInSeen[];
  failures: FailedSince | undefined;
  timeZone: string;
  changePassword: string;
};

export function LastSignInNote({ last }: { last: LastSignIn }) {
  const { previous, later, timeZone, failures } = last;
  return (
    <p className="last-sign-in">
      {previous ? accountTexts.lastSignIn(formatWhen(previous.at, timeZone), previous.device) : null}
      {previous && failures ? (
        <>
          {" "}
          <strong>{accountTexts.failedSince(failures.count, failures.addresses, failures.moreAddresses)}</strong>{" "}
          {accountTexts.notYou} <a href={last.changePassword}>{accountTexts.changePassword}</a>
        </>
      ) : null}
      {previous && later.length > 0 ? " " : null}
      {later.length > 0
        ? accountTexts.alsoSignedInSince(
            later.map(({ at, device }) => accountTexts.signInElsewhere(device, formatWhen(at, timeZone))),
          )
        : null}
    </p>
  );
}
