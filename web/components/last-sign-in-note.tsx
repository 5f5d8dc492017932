// "Last signed in Tuesday 24 November at 10:42 from Chrome on Windows", on each section's home, with the failed
// sign-in attempts since and a way to change the password when there were any.
import { formatWhen } from "#web/components/when.ts";
import { accountTexts } from "#web/texts/account.ts";

/** Failed sign-in attempts since the last sign-in: how many, and from how many addresses ("50+": `moreAddresses`). */
type FailedSince = { count: number; addresses: number; moreAddresses: boolean };

export type LastSignIn = {
  at: number;
  device: string;
  failures: FailedSince | undefined;
  timeZone: string;
  changePassword: string;
};

export function LastSignInNote({ last }: { last: LastSignIn }) {
  return (
    <p className="last-sign-in">
      {accountTexts.lastSignIn(formatWhen(last.at, last.timeZone), last.device)}
      {last.failures ? (
        <>
          {" "}
          <strong>
            {accountTexts.failedSince(last.failures.count, last.failures.addresses, last.failures.moreAddresses)}
          </strong>{" "}
          {accountTexts.notYou} <a href={last.changePassword}>{accountTexts.changePassword}</a>
        </>
      ) : null}
    </p>
  );
}
