// The change-password form of SPEC.md 2.5 / 4.4: local checks, the test call, then the change call.
import { type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from "react";
import { api } from "#web/api/client.ts";
import { Note, type NoteKind, Notes } from "#web/components/note.tsx";
import { PasswordChecklist } from "#web/components/password-checklist.tsx";
import { newPasswordProblem } from "#web/password-rules.ts";
import type { Site } from "#web/site.ts";
import { errorTexts } from "#web/texts/errors.ts";
import { passwordTexts } from "#web/texts/password.ts";

export type ChangePasswordFormProps = {
  /** SPEC.md 4.4: the audience defaults to client. */
  audience?: Site;
  userName?: string;
  /** After a success, go to `/{audience}/home`. */
  redirect: boolean;
  currentPassword?: string;
  /** A notice shown above the form from the start (the expired-password message). */
  notice?: string;
  /** The id of the form's heading, for a container labelled by it. */
  headingId?: string;
  /** Move focus to the heading on mount: the form has just replaced other content (the MFA step). */
  focusOnMount?: boolean;
};

type Field = "current" | "next" | "confirm";
type Message = { kind: NoteKind; text: string };

export function ChangePasswordForm(props: ChangePasswordFormProps) {
  const { audience = "client", userName, redirect, notice, focusOnMount = false } = props;
  // Fixed ids, not useId: an island hydrates as its own root, so tree-position ids would differ from the server's.
  const id = "change-password";
  const headingId = props.headingId ?? `${id}-heading`;
  const [values, setValues] = useState<Record<Field, string>>({
    current: props.currentPassword ?? "",
    next: "",
    confirm: "",
  });
  const [show, setShow] = useState(false);
  const [capsLock, setCapsLock] = useState(false);
  // SPEC.md 4.4: disabled on submit, enabled again only on error (a success keeps it disabled).
  const [disabled, setDisabled] = useState(false);
  const [message, setMessage] = useState<Message>();
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (focusOnMount) heading.current?.focus();
  }, [focusOnMount]);

  const fail = (text: string) => {
    setMessage({ kind: "error", text });
    setDisabled(false);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (disabled) return;
    setDisabled(true);
    setMessage(undefined);
    const problem = newPasswordProblem(values.next, values.confirm);
    if (problem) return fail(problem);

    const path = { audience };
    const test = await api.POST("/web/{audience}/password/test", {
      params: { path },
      body: { userId: userName ?? "", password: values.current },
    });
    if (test.error) return fail(test.error.detail ?? errorTexts.actionFailed);
    if (!test.data) return; // a 401: the browser is on its way to the login page

    const change = await api.POST("/web/{audience}/password/change", {
      params: { path },
      body: { password: values.next },
    });
    if (change.error) return fail(change.error.detail ?? errorTexts.actionFailed);
    if (!change.data) return;

    setMessage({ kind: "success", text: passwordTexts.changed });
    if (redirect) window.location.assign(`/${audience}/home`);
  };

  const onKey = (event: KeyboardEvent<HTMLInputElement>) => setCapsLock(event.getModifierState("CapsLock"));

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

  return (
    <div className="change-password">
      <h2 id={headingId} ref={heading} tabIndex={-1}>
        {passwordTexts.heading}
      </h2>
      <Notes>
        {notice ? <Note kind="info">{notice}</Note> : null}
        {message ? <Note kind={message.kind}>{message.text}</Note> : null}
      </Notes>
      {/* noValidate: the section 5 messages, in their order, are what an empty or short password shows. */}
      <form noValidate onSubmit={onSubmit} aria-busy={disabled && !message}>
        {userName ? (
          <label htmlFor={`${id}-username`}>
            {passwordTexts.username}
            <input id={`${id}-username`} name="username" readOnly value={userName} autoComplete="username" />
          </label>
        ) : null}
        {passwordInput("current", passwordTexts.currentPassword, "current-password")}
        {passwordInput("next", passwordTexts.newPassword, "new-password", `${id}-requirements`)}
        {passwordInput("confirm", passwordTexts.confirmPassword, "new-password")}
        {capsLock ? (
          <p className="caps-lock" role="status">
            {passwordTexts.capsLock}
          </p>
        ) : null}
        <label htmlFor={`${id}-show`}>
          <input
            id={`${id}-show`}
            type="checkbox"
            checked={show}
            onChange={(event) => setShow(event.currentTarget.checked)}
          />
          {passwordTexts.show}
        </label>
        <PasswordChecklist id={`${id}-requirements`} password={values.next} />
        <button type="submit" disabled={disabled}>
          {passwordTexts.submit}
        </button>
      </form>
    </div>
  );
}
