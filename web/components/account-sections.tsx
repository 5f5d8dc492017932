// "Where you're signed in", "Browsers that skip the code" and "Recent security activity", below the change-password form: rendered by the server,
// with plain forms posted to the server (no script), as Sign out is; the change-password island focuses their result
// and draws them again after a change (use-account-sections.ts).
import type { ReactNode } from "react";
import { Note, type NoteKind } from "#web/components/note.tsx";
import { ACTIVITY_SECTION_ID, DEVICES_SECTION_ID, SESSIONS_SECTION_ID } from "#web/components/use-account-sections.ts";
import { formatWhen } from "#web/components/when.ts";
import { accountTexts } from "#web/texts/account.ts";

export type SessionRow = {
  /** A digest of the session id: the form names a session by it, never by its id. */
  id: string;
  device: string;
  address: string;
  began: number;
  seen: number;
  current: boolean;
};

/** A browser that skips the code (server/stores/trusted-devices.ts), named by its id's digest. */
export type DeviceRow = { id: string; device: string; address: string; first: number; last: number; current: boolean };

export type ActivityRow = {
  event: string;
  /** The event's time; for counted failures, the latest one's (as are the device and the address). */
  at: number;
  device: string;
  address: string;
  /** Failures counted rather than listed one by one (server/stores/failure-tallies.ts). */
  counted?: { count: number; addresses: number; moreAddresses: boolean; first: number };
};

export type AccountView = {
  timeZone: string;
  /** Where the forms post, and the page they come back to. */
  action: string;
  returnPath: string;
  sessions: SessionRow[];
  sessionsComplete: boolean;
  trimmed: boolean;
  /** The upstream did not say whose account the session opened: it is a person of its own (server/account/person.ts). */
  alone?: boolean;
  /** What the last request to end sessions or forget browsers did, and which section it is shown in. */
  result?: { kind: NoteKind; text: string };
  resultAt?: "sessions" | "devices";
  /** Where "Forget" posts; the person's browsers that skip the code, newest trust first. */
  forgetAction: string;
  devices: DeviceRow[];
  devicesComplete: boolean;
  activity: ActivityRow[];
  activityComplete: boolean;
  /** The address that shows the next rows of the activity, when more are kept. */
  moreActivity?: string;
};

export function AccountSections({ view }: { view: AccountView }) {
  // This device first, then the others as the server lists them (newest sign-in first).
  const sessions = view.sessions.toSorted((a, b) => Number(b.current) - Number(a.current));
  const others = sessions.filter((session) => !session.current);
  const when = (at: number) => formatWhen(at, view.timeZone);
  return (
    <>
      <section id={SESSIONS_SECTION_ID} className="account-section" aria-labelledby="sessions-heading">
        <h2 id="sessions-heading">{accountTexts.sessionsHeading}</h2>
        {view.result && view.resultAt !== "devices" ? <Note kind={view.result.kind}>{view.result.text}</Note> : null}
        {view.sessionsComplete ? null : <Note kind="info">{accountTexts.incomplete}</Note>}
        {view.alone ? <Note kind="info">{accountTexts.alone}</Note> : null}
        {view.trimmed ? <p className="account-aside">{accountTexts.trimmed}</p> : null}
        <ul className="sessions">
          {sessions.map((session, index) => (
            <li key={session.id} className="session">
              <div className="session-about">
                <strong>{session.device}</strong>
                {session.current ? <span className="this-device">{accountTexts.thisDevice}</span> : null}
                <span className="session-detail">{session.address}</span>
                <span className="session-detail">
                  {accountTexts.began} {when(session.began)}
                </span>
                <span className="session-detail">
                  {accountTexts.lastActive} {when(session.seen)}
                </span>
              </div>
              {session.current ? null : (
                // A control of a button's size, its name saying which session it ends; it opens the password's form.
                <details className="end-session">
                  <summary>
                    {accountTexts.signOut}
                    <span className="visually-hidden">{accountTexts.ofSession(session.device, session.address)}</span>
                  </summary>
                  <EndForm view={view} session={session.id} field={`session-password-${index}`}>
                    {accountTexts.signOutOf(session.device)}
                  </EndForm>
                </details>
              )}
            </li>
          ))}
        </ul>
        {others.length === 0 ? (
          <p>{accountTexts.none}</p>
        ) : (
          // Apart from the list, under a heading of its own: it ends every session above but this one.
          <div className="end-all">
            <h3>{accountTexts.signOutAllHeading}</h3>
            <p>{accountTexts.signOutAllAbout}</p>
            <EndForm view={view} session="all" field="sessions-password">
              {accountTexts.signOutAll}
            </EndForm>
          </div>
        )}
      </section>
      <DevicesSection view={view} when={when} />
      <section id={ACTIVITY_SECTION_ID} className="account-section" aria-labelledby="activity-heading">
        <h2 id="activity-heading">{accountTexts.activityHeading}</h2>
        {view.activityComplete ? null : <Note kind="info">{accountTexts.activityIncomplete}</Note>}
        {view.activity.length === 0 ? (
          <p>{accountTexts.activityNone}</p>
        ) : (
          <ul className="activity">
            {view.activity.map((record) =>
              record.counted && record.counted.count > 1 ? (
                <li key={`${record.at}-${record.event}-${record.counted.count}`}>
                  <strong>
                    {accountTexts.failures(
                      record.event,
                      record.counted.count,
                      record.counted.addresses,
                      record.counted.moreAddresses,
                    )}
                  </strong>
                  <span className="session-detail">{span(when(record.counted.first), when(record.at))}</span>
                  <span className="session-detail">{accountTexts.latest(record.device, record.address)}</span>
                </li>
              ) : (
                <li key={`${record.at}-${record.event}-${record.address}`}>
                  <strong>{accountTexts.events[record.event] ?? record.event}</strong>
                  <span className="session-detail">{when(record.at)}</span>
                  <span className="session-detail">
                    {record.device}, {record.address}
                  </span>
                </li>
              ),
            )}
          </ul>
        )}
        {view.moreActivity ? (
          <p>
            <a href={view.moreActivity}>{accountTexts.showMore}</a>
          </p>
        ) : null}
      </section>
    </>
  );
}

/** "Browsers that skip the code": each with "Forget", this one first and marked, then "Forget all"; no password asked. */
function DevicesSection({ view, when }: { view: AccountView; when: (at: number) => string }) {
  const devices = view.devices.toSorted((a, b) => Number(b.current) - Number(a.current));
  return (
    <section id={DEVICES_SECTION_ID} className="account-section" aria-labelledby="devices-heading">
      <h2 id="devices-heading">{accountTexts.devicesHeading}</h2>
      {view.result && view.resultAt === "devices" ? <Note kind={view.result.kind}>{view.result.text}</Note> : null}
      {view.devicesComplete ? null : <Note kind="info">{accountTexts.devicesIncomplete}</Note>}
      <p>{accountTexts.devicesAbout}</p>
      {devices.length === 0 ? (
        <p>{accountTexts.devicesNone}</p>
      ) : (
        <>
          <ul className="devices">
            {devices.map((device) => (
              <li key={device.id} className="device">
                <div className="session-about">
                  <strong>{device.device}</strong>
                  {device.current ? <span className="this-device">{accountTexts.thisBrowser}</span> : null}
                  <span className="session-detail">{device.address}</span>
                  <span className="session-detail">
                    {accountTexts.firstTrusted} {when(device.first)}
                  </span>
                  <span className="session-detail">
                    {accountTexts.lastTrusted} {when(device.last)}
                  </span>
                </div>
                <ForgetForm view={view} device={device.id} className="secondary outline">
                  {accountTexts.forget}
                  <span className="visually-hidden">{accountTexts.ofDevice(device.device, device.address)}</span>
                </ForgetForm>
              </li>
            ))}
          </ul>
          <ForgetForm view={view} device="all">
            {accountTexts.forgetAll}
          </ForgetForm>
        </>
      )}
    </section>
  );
}

/** Forgets one browser, or all: a plain form posted to the server, which comes back here. */
function ForgetForm({
  view,
  device,
  className,
  children,
}: {
  view: AccountView;
  device: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <form method="post" action={view.forgetAction} className="forget-device">
      <input type="hidden" name="return" value={view.returnPath} />
      <input type="hidden" name="device" value={device} />
      <button type="submit" className={className}>
        {children}
      </button>
    </form>
  );
}

/** "Tuesday, 24 November 2026 at 10:42 UTC to Tuesday, 24 November 2026 at 11:40 UTC", or one time when both read the same. */
const span = (first: string, last: string) => (first === last ? last : accountTexts.between(first, last));

/** Ends one session or all the others; the current password goes with it, each time (no form shares one). */
function EndForm({
  view,
  session,
  field,
  children,
}: {
  view: AccountView;
  session: string;
  field: string;
  children: string;
}) {
  return (
    <form method="post" action={view.action} className="end-sessions">
      <input type="hidden" name="return" value={view.returnPath} />
      <input type="hidden" name="session" value={session} />
      <label htmlFor={field}>
        {accountTexts.currentPassword}
        <input id={field} name="password" type="password" required autoComplete="current-password" maxLength={256} />
      </label>
      <button type="submit" className={session === "all" ? undefined : "secondary outline"}>
        {children}
      </button>
    </form>
  );
}
