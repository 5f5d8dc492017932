// The change-password form of requirements 2.5 / 4.4: local checks, the test call, then the change call.

import { type FormEvent, useEffect, useRef, useState } from "react";
import { api, failureText } from "#web/api/client.ts";
import { END_OTHERS_HEADER, sessionsEndedNote } from "#web/api/end-others.ts";
import { CapsLockHint, useCapsLock } from "#web/components/caps-lock.tsx";
import { Isolated, isolate } from "#web/components/isolated.tsx";
import { Note, type NoteKind, Notes } from "#web/components/note.tsx";
import { PasswordChecklist } from "#web/components/password-checklist.tsx";
import { useAccountSections } from "#web/components/use-account-sections.ts";
import { focusTaken, useEarlyInput } from "#web/components/use-early-input.ts";
import { useNoteFocus } from "#web/components/use-note-focus.ts";
import { newPasswordProblem } from "#web/password-rules.ts";
import type { FormNote } from "#web/protocol/form-answer.ts";
import type { Site } from "#web/site.ts";
import { endOthersTexts } from "#web/texts/end-others.ts";
import { passwordTexts } from "#web/texts/password.ts";

/** How long "Password Successfully Changed!" stays in view before the page moves to the home page. */
export const CHANGED_PAUSE_MS = 4000;

export type ChangePasswordFormProps = {
  /** requirements 4.4: the audience defaults to client. */
  audience?: Site;
  userName?: string;
  /** After a success, go to `/{audience}/home`. */
  redirect: boolean;
  currentPassword?: string;
  /** A hint under Current Password (the expired step after a reload, which no longer holds it). */
  currentHint?: string;
  /** A notice shown above the form from the start (the expired-password message). */
  notice?: string;
  /** The id of the form's heading, for a container labelled by it. */
  headingId?: string;
  /** A part of a page headed by its own h1 (the section's security page), or the screen itself (the sign-in's step). */
  headingLevel?: 1 | 2;
  /** Move focus to the heading on mount: the form has just replaced other content (the MFA step). */
  focusOnMount?: boolean;
  /** The form posted before the script arrived, sent back with these notes (a refusal, or the success). */
  notes?: FormNote[];
  /** Where the form posts before the island wakes: this page unless given (the sign-in's forced change: `/mfa`). */
  action?: string;
};

type Field = "current" | "next" | "confirm";
type Message = { kind: NoteKind; text: string };

export function ChangePasswordForm(props: ChangePasswordFormProps) {
  const { audience = "client", userName, redirect, notice, focusOnMount = false } = props;
  // Fixed ids, not useId: an island hydrates as its own root, so tree-position ids would differ from the server's.
  const id = "change-password";
  const headingId = props.headingId ?? `${id}-heading`;
  const home = `/${audience}/home`; // requirements 4.4
  const [values, setValues] = useState<Record<Field, string>>({
    current: props.currentPassword ?? "",
    next: "",
    confirm: "",
  });
  const [show, setShow] = useState(false);
  const { capsLock, onKey } = useCapsLock();
  // requirements 4.4: disabled on submit, enabled again on error; a success that moves on keeps it disabled.
  const [disabled, setDisabled] = useState(false);
  const [first, ended] = props.notes ?? [];
  const [message, setMessage] = useState<Message | undefined>(first);
  // On a section page the person chooses (checked by default); the forced change at sign-in always ends them.
  const [endOthers, setEndOthers] = useState(true);
  const [endedNote, setEndedNote] = useState<string | undefined>(ended?.text);
  const heading = useRef<HTMLHeadingElement>(null);
  const Heading = props.headingLevel === 2 ? "h2" : "h1";
  const form = useRef<HTMLFormElement>(null);
  const [notes, focusNote] = useNoteFocus();
  const refreshSections = useAccountSections();

  useEarlyInput(form, ["current", "next", "confirm"], (early) =>
    setValues({ current: early.current ?? "", next: early.next ?? "", confirm: early.confirm ?? "" }),
  );

  useEffect(() => {
    const typing = focusTaken() && form.current?.contains(document.activeElement);
    if (focusOnMount && !typing) heading.current?.focus();
  }, [focusOnMount]);

  /** A message takes the focus, so it is read first; the next Tab leads back into the form. */
  const say = (kind: NoteKind, text: string) => {
    setMessage({ kind, text });
    focusNote();
  };

  const fail = (text: string) => {
    say("error", text);
    setDisabled(false);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (disabled) return;
    setDisabled(true);
    setMessage(undefined);
    setEndedNote(undefined);
    // An empty Current Password is named here, never sent to the test call.
    if (!values.current) {
      setMessage({ kind: "error", text: passwordTexts.currentRequired });
      setDisabled(false);
      form.current?.querySelector<HTMLInputElement>('[name="current"]')?.focus();
      return;
    }
    const problem = newPasswordProblem(values.next, values.confirm);
    if (problem) return fail(problem);

    const path = { audience };
    const test = await api.POST("/web/{audience}/password/test", {
      params: { path },
      body: { userId: userName ?? "", password: values.current },
    });
    if (test.error) return fail(failureText(test.error));
    if (!test.data) return; // a 401: the browser is on its way to the login page

    const change = await api.POST("/web/{audience}/password/change", {
      params: { path },
      body: { password: values.next },
      headers: { [END_OTHERS_HEADER]: redirect || endOthers ? "1" : "0" },
    });
    if (change.error) return fail(failureText(change.error));
    if (!change.data) return;
    const ended = sessionsEndedNote((name) => change.response.headers.get(name));
    if (ended) setEndedNote(ended);
    // The ended sessions leave the list, and the change joins the activity: drawn again as the server has them now.
    if (!redirect) void refreshSections();

    say("success", passwordTexts.changed);
    if (redirect) {
      // The success stays in view long enough to read, with a link to go on at once.
      window.setTimeout(() => window.location.assign(home), CHANGED_PAUSE_MS);
      return;
    }
    // On a section page the form is done with; it empties and can be used again.
    setValues({ current: "", next: "", confirm: "" });
    setDisabled(false);
  };

  const passwordInput = (field: Field, label: string, autoComplete: string, describedBy?: string) => (
    <label htmlFor={`${id}-${field}`}>
      {label}
      <input
        id={`${id}-${field}`}
        name={field}
        type={show ? "text" : "password"}
        required
        autoComplete={autoComplete}
        value={values[field]}
        onChange={(event) => {
          const value = event.currentTarget.value;
          setValues((current) => ({ ...current, [field]: value }));
        }}
        onKeyDown={onKey}
        onKeyUp={onKey}
        aria-describedby={describedBy}
      />
    </label>
  );

  const moving = redirect && message?.kind === "success";
  return (
    <div className="change-password">
      <Heading id={headingId} ref={heading} tabIndex={-1}>
        {passwordTexts.heading}
      </Heading>
      <div ref={notes}>
        <Notes>
          {notice && !moving ? <Note kind="info">{notice}</Note> : null}
          {message ? <Note kind={message.kind}>{message.text}</Note> : null}
          {message?.kind === "success" && endedNote ? <Note kind="info">{endedNote}</Note> : null}
          {moving ? (
            <p className="moving-on">
              {passwordTexts.movingOn} <a href={home}>{passwordTexts.continueNow}</a>
            </p>
          ) : null}
        </Notes>
      </div>
      {/* noValidate: the section 5 messages, in their order, are what an empty or short password shows. */}
      {/* A real form: before the island wakes (or without script) it posts to its page, never a password in the address. */}
      <form
        ref={form}
        method="post"
        action={props.action}
        noValidate
        onSubmit={onSubmit}
        aria-busy={disabled && !message}
      >
        {userName ? (
          // Whose password this is, as text: nothing to edit or to reach with Tab. The hidden field beside it is for
          // password managers, which file the new password under the user name they find in the form.
          <p>
            {passwordTexts.username}
            <br />
            <strong>
              <Isolated text={isolate(userName)} />
            </strong>
            <input name="username" value={userName} autoComplete="username" readOnly hidden />
          </p>
        ) : null}
        {props.currentHint ? (
          <p id={`${id}-current-hint`}>
            <small>{props.currentHint}</small>
          </p>
        ) : null}
        {passwordInput(
          "current",
          passwordTexts.currentPassword,
          "current-password",
          props.currentHint ? `${id}-current-hint` : undefined,
        )}
        {passwordInput("next", passwordTexts.newPassword, "new-password", `${id}-requirements`)}
        {passwordInput("confirm", passwordTexts.confirmPassword, "new-password")}
        <CapsLockHint on={capsLock} />
        <label htmlFor={`${id}-show`} className="check-row">
          <input
            id={`${id}-show`}
            type="checkbox"
            checked={show}
            onChange={(event) => setShow(event.currentTarget.checked)}
          />
          {passwordTexts.show}
        </label>
        <PasswordChecklist id={`${id}-requirements`} password={values.next} />
        {redirect ? null : (
          <label htmlFor={`${id}-end-others`} className="check-row">
            <input
              id={`${id}-end-others`}
              name="endOthers"
              type="checkbox"
              checked={endOthers}
              onChange={(event) => setEndOthers(event.currentTarget.checked)}
            />
            {endOthersTexts.checkbox}
          </label>
        )}
        <button type="submit" disabled={disabled}>
          {passwordTexts.submit}
        </button>
      </form>
    </div>
  );
}
