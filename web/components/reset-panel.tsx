// The Password Reset panel of requirements 2.3 / 4.3: entry view, confirmation view, and the alert 5 s after success.
import { type FormEvent, useEffect, useRef, useState } from "react";
import { api, failureText } from "#web/api/client.ts";
import { Note, Notes } from "#web/components/note.tsx";
import { focusTaken, useEarlyInput } from "#web/components/use-early-input.ts";
import { useNoteFocus } from "#web/components/use-note-focus.ts";
import type { FormNote } from "#web/protocol/form-answer.ts";
import { type ResetField, resetProblem } from "#web/reset-checks.ts";
import type { Site } from "#web/site.ts";
import { resetTexts } from "#web/texts/reset.ts";

/** requirements 9: the alert appears this long after a successful submit. */
export const RESET_ALERT_DELAY_MS = 5000;

/** How the page opened the panel: its confirmation (a form posted before the script arrived), or a note and typing. */
export type ResetPanelState = { sent: boolean; note?: FormNote; typed?: { shortName: string; email: string } };

type Props = {
  site: Site;
  onReturn: () => void;
  /** The login form's address, which Return To Login links to before the island wakes. */
  returnLink: string;
  /** The company short name already typed on the login form, kept. */
  shortName?: string;
  opened?: ResetPanelState;
};
type Field = ResetField;
type Problem = { text: string; field?: Field };

export function ResetPanel({ site, onReturn, returnLink, shortName: typed = "", opened }: Props) {
  // Fixed ids, not useId: an island hydrates as its own root, so tree-position ids would differ from the server's.
  const id = `reset-${site}`;
  const client = site === "client";
  const [shortName, setShortName] = useState(opened?.typed?.shortName ?? typed);
  const [email, setEmail] = useState(opened?.typed?.email ?? "");
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(opened?.sent ?? false);
  const [problem, setProblem] = useState<Problem | undefined>(opened?.note && { text: opened.note.text });
  const panel = useRef<HTMLElement>(null);
  const alertTimer = useRef<number>(undefined);

  useEarlyInput(panel, ["clientShortName", "emailAddress"], (early) => {
    if (early.clientShortName !== undefined) setShortName(early.clientShortName);
    if (early.emailAddress !== undefined) setEmail(early.emailAddress);
  });

  // Focus moves into the panel when it opens (its first field), and to the confirmation once sent; a person already
  // in the page when it woke keeps their place.
  useEffect(() => {
    if (focusTaken() && panel.current?.contains(document.activeElement)) return;
    const target = sent
      ? panel.current?.querySelector<HTMLElement>(".note")
      : panel.current?.querySelector<HTMLElement>("input:not([type=hidden])");
    target?.focus();
  }, [sent]);

  // The alert belongs to the panel; leaving it (Return To Login, another tab) cancels it.
  useEffect(() => () => window.clearTimeout(alertTimer.current), []);

  // Escape leaves the panel, as Return To Login does, from either view (a dialog-like panel's usual way out).
  useEffect(() => {
    const section = panel.current;
    const leave = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      event.preventDefault();
      onReturn();
    };
    section?.addEventListener("keydown", leave);
    return () => section?.removeEventListener("keydown", leave);
  }, [onReturn]);

  const [notes, focusNote] = useNoteFocus();
  const fail = (found: Problem) => {
    setProblem(found);
    if (found.field) panel.current?.querySelector<HTMLElement>(`[name="${found.field}"]`)?.focus();
    else focusNote();
  };

  // requirements 5: only a required check applies here (no format check on the e-mail), said in the requirements' words.
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setProblem(undefined);
    const missing = resetProblem(site, shortName, email);
    if (missing) return fail({ text: missing.message, ...(missing.field ? { field: missing.field } : {}) });
    setBusy(true);
    const { data, error } = await api.POST("/web/reset-pwd", {
      body: { clientShortName: client ? shortName.trim() : "", emailAddress: email.trim() },
    });
    setBusy(false);
    // docs/requirements.md is silent on a failed reset call: we show its message and keep the entry view with what was
    // typed, so the user can correct it or retry; the confirmation is only for an accepted request.
    if (error) return fail({ text: failureText(error) });
    if (!data) return;
    setSent(true);
    alertTimer.current = window.setTimeout(() => window.alert(resetTexts.alert), RESET_ALERT_DELAY_MS);
  };

  const heading = <h1 id={`${id}-heading`}>{resetTexts.heading}</h1>;
  // A link to the login form's page, which the island follows in place; drawn as the button requirements 2.3 names.
  const returnButton = (
    // biome-ignore lint/a11y/useSemanticElements: a link that works before the island wakes, drawn as a button.
    <a
      href={returnLink}
      role="button"
      className="secondary outline"
      onClick={(event) => {
        event.preventDefault();
        onReturn();
      }}
    >
      {resetTexts.returnToLogin}
    </a>
  );

  if (sent) {
    return (
      <section className="reset-panel" aria-labelledby={`${id}-heading`} ref={panel}>
        {heading}
        <Notes>
          <Note kind="success">{resetTexts.confirmation}</Note>
        </Notes>
        {returnButton}
      </section>
    );
  }

  const described = (field: Field) =>
    problem?.field === field ? { "aria-invalid": true, "aria-describedby": `${id}-problem` } : {};
  return (
    <section className="reset-panel" aria-labelledby={`${id}-heading`} ref={panel}>
      {heading}
      <p>{resetTexts.instruction(client)}</p>
      <div ref={notes}>
        <Notes>
          {problem ? (
            <Note kind="error">
              <span id={`${id}-problem`}>{problem.text}</span>
            </Note>
          ) : null}
        </Notes>
      </div>
      {/* A real form: before the island wakes (or without script) it posts to this page, the address naming nobody. */}
      <form method="post" onSubmit={onSubmit} noValidate aria-busy={busy}>
        <input type="hidden" name="intent" value="reset" />
        <input type="hidden" name="site" value={site} />
        {client ? (
          <label htmlFor={`${id}-short-name`}>
            {resetTexts.companyShortName}
            <input
              id={`${id}-short-name`}
              name="clientShortName"
              required
              autoComplete="organization"
              autoCapitalize="none"
              value={shortName}
              onChange={(event) => setShortName(event.currentTarget.value)}
              {...described("clientShortName")}
            />
          </label>
        ) : null}
        <label htmlFor={`${id}-email`}>
          {resetTexts.emailAddress}
          {/* type="text", not "email": requirements 5 allows no format check on the address. */}
          <input
            id={`${id}-email`}
            name="emailAddress"
            type="text"
            inputMode="email"
            required
            autoComplete="email"
            autoCapitalize="none"
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
            {...described("emailAddress")}
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
