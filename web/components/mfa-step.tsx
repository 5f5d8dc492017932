// The multi-factor step of requirements 2.4 / 4.2: silent check of this device's code, generate, validate, expired password.

import { type FormEvent, lazy, Suspense, useEffect, useRef, useState } from "react";
import { api, failureCode, failureText } from "#web/api/client.ts";
import { Note, type NoteKind, Notes } from "#web/components/note.tsx";
import { UseAnotherAccount } from "#web/components/use-another-account.tsx";
import { useCooldown } from "#web/components/use-cooldown.ts";
import { focusTaken, useEarlyInput } from "#web/components/use-early-input.ts";
import { useNoteFocus } from "#web/components/use-note-focus.ts";
import { MFA_CODE_MAX_LENGTH, mfaCodeOf } from "#web/mfa-code.ts";
import type { FormNote } from "#web/protocol/form-answer.ts";
import { COOLDOWN_HEADER, SEND_AGAIN_COOLDOWN_MS, SILENT_CHECK_HEADER } from "#web/protocol/headers.ts";
import { readVerdict } from "#web/protocol/held.ts";
import type { LoginMessage, Site } from "#web/site.ts";
import { type Remembered, storedMfaCode, storeMfaCode } from "#web/state/local-storage.ts";
import { keepPending, rememberPending } from "#web/state/sign-in-undo.ts";
import { answerCodes, errorTexts } from "#web/texts/errors.ts";
import { mfaTexts } from "#web/texts/mfa.ts";

// Only an expired password needs the form (and the password rules behind it): a chunk of its own keeps them
// off the login page's first load.
const loadExpiredStep = () => import("#web/components/expired-password-step.tsx");
const ExpiredPasswordStep = lazy(() => loadExpiredStep().then((module) => ({ default: module.ExpiredPasswordStep })));
// Its idle warning: the page was loaded before the sign-in, so it has none of its own.
const SignInIdleWarning = lazy(() =>
  import("#web/components/sign-in-idle-warning.tsx").then((module) => ({ default: module.SignInIdleWarning })),
);

export type MfaStepProps = {
  site: Site;
  /** The client's company short name (empty for a vendor): the device's code is kept per person, company included. */
  company: string;
  userName: string;
  loginMessage: LoginMessage;
  /** Known when the user typed it on this page: prefills Current Password if the password has expired. */
  password?: string;
  /** Where to go once the code passes (web/site.ts `landingUrl`). */
  landing: string;
  /** Remember me as the login form on this page left it (web/state/sign-in-undo.ts); unknown after a reload. */
  remember?: Remembered | null;
  /**
   * The held token is gone (generate failed, nothing to verify, or the last allowed wrong code). Without this
   * callback the step shows the message itself with a way back to the login page.
   */
  onSessionLost?: (message: string) => void;
  /** A code form posted before the script arrived, sent back with its note: the step opens on it, no code sent again. */
  note?: FormNote;
  /**
   * The page was not opened by the person (another site, or the browser by itself, server/session/plugin.ts): the
   * step sends no code as it opens; the code already sent stays valid, and "Send Again" sends a new one.
   */
  quiet?: boolean;
  /** Where the form posts before the island wakes: this page unless given (the login page's inline step: `/mfa`). */
  action?: string;
};

type Phase = "verifying" | "code" | "expired" | "lost";
type Message = { kind: NoteKind; text: string };

export function MfaStep(props: MfaStepProps) {
  const { site, company, userName, loginMessage, password, landing, remember, onSessionLost, note, quiet, action } =
    props;
  // Fixed ids, not useId: an island hydrates as its own root, so tree-position ids would differ from the server's.
  const id = "mfa";
  // The server renders the code form, usable before the island wakes (the server sent a code with the login it took);
  // the island then tries this device's stored code first, "verifying" meanwhile.
  const [phase, setPhase] = useState<Phase>("code");
  const [busy, setBusy] = useState(false);
  const [code, setCode] = useState("");
  const [message, setMessage] = useState<Message | undefined>(note);
  const cooldown = useCooldown(SEND_AGAIN_COOLDOWN_MS);
  const heading = useRef<HTMLHeadingElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const [notes, focusMessage] = useNoteFocus();
  const opened = useRef(false);
  const step = useRef<HTMLElement>(null);
  useEarlyInput(step, ["code"], (early) => setCode(early.code ?? ""));

  // After an error, its note takes the focus (focusMessage): read first, and the next Tab leads to the code.

  const lose = (text: string) => {
    if (onSessionLost) return onSessionLost(text);
    setPhase("lost");
    setMessage({ kind: "error", text });
    focusMessage();
  };

  /** Sends a code; `again` when the person asked for it, so the step confirms that a new code went out. */
  const generate = async (again: boolean) => {
    cooldown.start(); // counted from the request, so repeated clicks cannot flood the mailbox
    setPhase("code");
    const { data, error, response } = await api.POST("/web/{site}/mfa/generate", { params: { path: { site } } });
    if (error) return lose(errorTexts.sessionExpired);
    if (!data) return;
    // A code went out moments ago (the step was reloaded), so the portal sent none: count down what is left of its
    // wait, not the whole 20 s again.
    const left = Number(response.headers.get(COOLDOWN_HEADER));
    const skipped = left > 0;
    if (skipped) cooldown.start(Math.min(left * 1000, SEND_AGAIN_COOLDOWN_MS));
    // Only a code the person asked for replaces the step's note: the opening code keeps what was said meanwhile (an
    // empty code submitted while it went out).
    if (again) setMessage(skipped ? undefined : { kind: "success", text: mfaTexts.resent });
    else input.current?.focus();
  };

  /** Checks a code; a pass stores it for this device, then lands or opens the change-password form. */
  const validate = async (candidate: string, silent: boolean): Promise<void> => {
    setBusy(true);
    // The silent check says it is one: from a browser not trusted for the code, the portal answers it without the
    // upstream and counts no wrong code (server/security/device-cookie.ts). A typed code goes unmarked, and counts.
    const { data, error } = await api.POST("/web/{site}/mfa/validate/{code}", {
      params: { path: { site, code: candidate } },
      headers: silent ? { [SILENT_CHECK_HEADER]: "1" } : {},
    });
    if (!error && !data) return; // a 401: the browser is on its way to the login page
    const verdict = error ? undefined : readVerdict(data);
    if (verdict?.passed) {
      storeMfaCode(site, company, userName, candidate);
      keepPending();
      if (loginMessage === "Password Expired") {
        setBusy(false);
        setPhase("expired");
        return;
      }
      window.location.assign(landing);
      return; // stays busy while the landing page loads
    }
    setBusy(false);
    // The last allowed wrong code ends the sign-in; the step says so instead of "session expired".
    const left = verdict?.attemptsLeft;
    if (failureCode(error) === answerCodes.mfaAttemptsExhausted || left === 0) return lose(mfaTexts.attemptsExhausted);
    // Decision: a silent check that fails for any reason, an error included, falls back to sending a code,
    // since the user can do nothing with the stored code anyway.
    // A refused stored code is dropped (a forgotten or lapsed browser, issue 41); an outage keeps it.
    if (silent) {
      if (!error) storeMfaCode(site, company, userName, null);
      return void generate(false);
    }
    const text = error ? failureText(error) : mfaTexts.wrongCode(left);
    if (!error) setCode(""); // a refused code is of no more use: the field is ready for the next one
    setMessage({ kind: "error", text });
    focusMessage();
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once when the step opens; later codes come from "Send Again".
  useEffect(() => {
    if (opened.current) return;
    opened.current = true;
    // The step has just replaced the form that had the focus; the code field takes it next. A person already typing
    // in the step when it woke keeps their place.
    const typing = focusTaken() && step.current?.contains(document.activeElement);
    if (!typing) heading.current?.focus();
    if (loginMessage === "Password Expired") void loadExpiredStep(); // fetched while the code is typed
    if (!site || !userName) {
      lose(errorTexts.sessionExpired);
      return;
    }
    if (remember !== undefined) rememberPending(site, userName, remember);
    // A form sent back by the server has already had its code sent, and a page the person did not open sends none: the
    // person goes on with the code sent.
    if (note || quiet) return;
    const stored = storedMfaCode(site, company, userName);
    if (stored) {
      setPhase("verifying");
      void validate(stored, true);
    } else void generate(false);
  }, []);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const typed = mfaCodeOf(code);
    if ("problem" in typed) {
      setMessage({ kind: "error", text: typed.problem });
      input.current?.focus();
      return;
    }
    setMessage(undefined);
    void validate(typed.code, false);
  };

  if (phase === "expired") {
    return (
      <Suspense fallback={<Note kind="info">{mfaTexts.passwordExpired}</Note>}>
        <ExpiredPasswordStep
          site={site}
          userName={userName}
          headingId={`${id}-heading`}
          focusOnMount
          {...(password ? { password } : {})}
        />
        <SignInIdleWarning />
      </Suspense>
    );
  }

  const verifying = phase === "verifying";
  const lost = phase === "lost";
  const codeError = message?.kind === "error" && !lost;
  return (
    <section className="mfa-step" aria-labelledby={`${id}-heading`} ref={step}>
      <h1 id={`${id}-heading`} ref={heading} tabIndex={-1}>
        {mfaTexts.heading}
      </h1>
      <p>{mfaTexts.sent}</p>
      <p>{mfaTexts.sendAgainNote}</p>
      <p>{mfaTexts.newestOnly}</p>
      <p>{mfaTexts.trustNote}</p>
      <div ref={notes}>
        <Notes>
          {verifying ? <Note kind="info">{mfaTexts.verifying}</Note> : null}
          {message ? (
            <Note kind={message.kind}>
              <span id={`${id}-message`}>{message.text}</span>
            </Note>
          ) : null}
        </Notes>
      </div>
      {lost ? (
        <p>
          <a href="/" className="button-link">
            {mfaTexts.signInAgain}
          </a>
        </p>
      ) : (
        // A real form: before the island wakes (or without script) it posts the code, never in the address.
        <form method="post" action={action} onSubmit={onSubmit} noValidate aria-busy={busy || verifying}>
          <label htmlFor={`${id}-code`}>
            {mfaTexts.codeLabel}
            <input
              ref={input}
              id={`${id}-code`}
              name="code"
              required
              maxLength={MFA_CODE_MAX_LENGTH}
              placeholder={"_".repeat(MFA_CODE_MAX_LENGTH)}
              autoComplete="one-time-code"
              inputMode="numeric"
              value={code}
              onChange={(event) => setCode(event.currentTarget.value)}
              onPaste={(event) => {
                // A pasted code loses its spaces before the field's length applies: "1234 5678" is 8 digits.
                const field = event.currentTarget;
                const pasted = event.clipboardData.getData("text").replace(/\s/g, "");
                const start = field.selectionStart ?? field.value.length;
                const end = field.selectionEnd ?? start;
                event.preventDefault();
                setCode(
                  `${field.value.slice(0, start)}${pasted}${field.value.slice(end)}`.slice(0, MFA_CODE_MAX_LENGTH),
                );
              }}
              disabled={verifying}
              aria-invalid={codeError || undefined}
              aria-describedby={codeError ? `${id}-message` : undefined}
            />
          </label>
          <div className="button-row">
            <button type="submit" disabled={busy || verifying}>
              {mfaTexts.submit}
            </button>
            <button
              type="submit"
              name="intent"
              value="send-again"
              formNoValidate
              className="secondary outline"
              disabled={verifying || cooldown.secondsLeft > 0}
              onClick={(event) => {
                event.preventDefault();
                void generate(true);
              }}
            >
              {cooldown.secondsLeft > 0 ? mfaTexts.sendAgainIn(cooldown.secondsLeft) : mfaTexts.sendAgain}
            </button>
          </div>
        </form>
      )}
      {lost ? null : <UseAnotherAccount site={site} userName={userName} />}
    </section>
  );
}
