// The Password Reset panel of SPEC.md 2.3 / 4.3: entry view, confirmation view, and the alert 5 s after success.
import { type FormEvent, useState } from "react";
import { api } from "#web/api/client.ts";
import { Note, Notes } from "#web/components/note.tsx";
import type { Site } from "#web/site.ts";
import { errorTexts } from "#web/texts/errors.ts";
import { resetTexts } from "#web/texts/reset.ts";

/** SPEC.md 9: the alert appears this long after a successful submit. */
export const RESET_ALERT_DELAY_MS = 5000;

type Props = { site: Site; onReturn: () => void };

export function ResetPanel({ site, onReturn }: Props) {
  // Fixed ids, not useId: an island hydrates as its own root, so tree-position ids would differ from the server's.
  const id = `reset-${site}`;
  const client = site === "client";
  const [shortName, setShortName] = useState("");
  const [email, setEmail] = useState("");
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  const [failure, setFailure] = useState<string>();

  // SPEC.md 5: only the browser's required check applies here, so the form keeps native validation.
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setFailure(undefined);
    const { data, error } = await api.POST("/web/reset-pwd", {
      body: { clientShortName: client ? shortName.trim() : "", emailAddress: email.trim() },
    });
    setBusy(false);
    // SPEC.md is silent on a failed reset call: we show its message and keep the entry view with what was
    // typed, so the user can correct it or retry; the confirmation is only for an accepted request.
    if (error) return setFailure(error.detail ?? errorTexts.actionFailed);
    if (!data) return;
    setSent(true);
    // Not cleared on unmount: the alert belongs to the submit, and still comes if the user returns to login.
    window.setTimeout(() => window.alert(resetTexts.alert), RESET_ALERT_DELAY_MS);
  };

  const heading = (
    <h2 id={`${id}-heading`} tabIndex={-1}>
      {resetTexts.heading}
    </h2>
  );
  const returnButton = (
    <button type="button" className="secondary" onClick={onReturn}>
      {resetTexts.returnToLogin}
    </button>
  );

  if (sent) {
    return (
      <section className="reset-panel" aria-labelledby={`${id}-heading`}>
        {heading}
        <Notes>
          <Note kind="success">{resetTexts.confirmation}</Note>
        </Notes>
        {returnButton}
      </section>
    );
  }

  return (
    <section className="reset-panel" aria-labelledby={`${id}-heading`}>
      {heading}
      <p>{resetTexts.instruction(client)}</p>
      <Notes>{failure ? <Note kind="error">{failure}</Note> : null}</Notes>
      <form onSubmit={onSubmit} aria-busy={busy}>
        {client ? (
          <label htmlFor={`${id}-short-name`}>
            {resetTexts.companyShortName}
            <input
              id={`${id}-short-name`}
              name="clientShortName"
              required
              autoComplete="organization"
              value={shortName}
              onChange={(event) => setShortName(event.currentTarget.value)}
            />
          </label>
        ) : null}
        <label htmlFor={`${id}-email`}>
          {resetTexts.emailAddress}
          {/* type="text", not "email": SPEC.md 5 allows no format check on the address. */}
          <input
            id={`${id}-email`}
            name="emailAddress"
            type="text"
            inputMode="email"
            required
            autoComplete="email"
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
          />
        </label>
        <div className="button-row">
          {returnButton}
          <button type="submit" disabled={busy}>
            {resetTexts.submit}
          </button>
        </div>
      </form>
    </section>
  );
}
