// The client or vendor login form of requirements 2.2 / 4.1: required checks, remember me, the login call.
import { useSignals } from "@preact/signals-react/runtime";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { CapsLockHint, useCapsLock } from "#web/components/caps-lock.tsx";
import { BusyOverlay, Note, Notes } from "#web/components/note.tsx";
import { focusTaken, useEarlyInput } from "#web/components/use-early-input.ts";
import { useNoteFocus } from "#web/components/use-note-focus.ts";
import { TAX_BRIDGE_HEADER } from "#web/protocol/headers.ts";
import { asHeld, type HeldLogin } from "#web/protocol/held.ts";
import { type LoginField, loginProblem, type Problem as SignInProblem } from "#web/sign-in-checks.ts";
import type { Site } from "#web/site.ts";
import { rememberedLogin } from "#web/state/local-storage.ts";
import { type PendingSignIn, typedValues, typeValues, valuesOf } from "#web/state/login-page.ts";
import { loginTexts } from "#web/texts/login-screen.ts";

// The API client is the form's only use of the network: the server's form works until it arrives, so it is not part
// of the page's first load; it is fetched once the island has woken, before a person is likely to submit.
const loadApi = () => import("#web/api/client.ts");

type Field = LoginField;
type Problem = SignInProblem<Field>;

type Props = {
  site: Site;
  providerName: string;
  onHeld: (pending: PendingSignIn) => void;
  /** Called when the user starts a new attempt, so an older page-level message goes away. */
  onAttempt: () => void;
  /** Put the focus in the first empty field once the form is ready (the page has just opened). */
  focusFirstEmpty: boolean;
  /** The form is `/tax-bridge/login`'s: its sign-in is in tax-bridge mode. */
  taxBridge: boolean;
};

/** The fields of a site's form, in order: client has Company Short Name first (requirements 2.2). */
const fieldsOf = (site: Site): Field[] =>
  site === "client" ? ["shortName", "userName", "password"] : ["userName", "password"];

export function LoginForm({ site, providerName, onHeld, onAttempt, focusFirstEmpty, taxBridge }: Props) {
  useSignals();
  // Fixed ids, not useId: an island hydrates as its own root, so tree-position ids would differ from the server's.
  const id = `login-${site}`;
  const values = valuesOf(site);
  const [show, setShow] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem>();
  const { capsLock, onKey } = useCapsLock();
  const form = useRef<HTMLFormElement>(null);
  const [notes, focusNote] = useNoteFocus();

  // What was typed before the island woke is kept, and this device's remembered IDs then do not replace it.
  useEarlyInput(form, [...fieldsOf(site), "remember"], (typed) =>
    typeValues(site, {
      ...(typed.shortName !== undefined ? { shortName: typed.shortName } : {}),
      ...(typed.userName !== undefined ? { userName: typed.userName } : {}),
      ...(typed.password !== undefined ? { password: typed.password } : {}),
      remember: typed.remember === "on",
    }),
  );

  const focusField = (field: Field) => form.current?.querySelector<HTMLInputElement>(`[name="${field}"]`)?.focus();

  // Local storage is read after hydration only, so the server's markup and the first client render agree. A site's
  // form reads it the first time it opens; after that, what was typed stays, across tab switches too.
  useEffect(() => {
    void loadApi();
  }, []);

  useEffect(() => {
    if (typedValues.value[site] === null) {
      // Nothing typed yet (the layout effect above keeps what was): this device's remembered IDs fill the form.
      const saved = rememberedLogin(site);
      typeValues(site, saved ? { shortName: saved.shortName, userName: saved.userName, remember: true } : {});
    }
    if (!focusFirstEmpty || focusTaken()) return;
    const current = valuesOf(site);
    const empty = fieldsOf(site).find((field) => !current[field]);
    form.current?.querySelector<HTMLInputElement>(`[name="${empty ?? "password"}"]`)?.focus();
  }, [site, focusFirstEmpty]);

  const set = (field: Field) => (event: { currentTarget: HTMLInputElement }) =>
    typeValues(site, { [field]: event.currentTarget.value });

  const onRemember = (checked: boolean) => {
    // The device forgets only once a login is accepted: unchecking alone, then leaving, loses nothing.
    typeValues(site, { remember: checked });
  };

  /** A failure's message takes the focus, so it is read first and the next Tab leads back into the form. */
  const fail = (found: Problem) => {
    setProblem(found);
    if (found.field) focusField(found.field);
    else focusNote();
  };

  /** The login call: its held answer, a failure's message, or nothing when a 401 is taking the browser away. */
  const login = async (): Promise<{ held?: HeldLogin; failed?: string }> => {
    const { shortName, userName, password } = values;
    const { api, failureText } = await loadApi();
    const headers = taxBridge ? { [TAX_BRIDGE_HEADER]: "1" } : {};
    const { data, error } =
      site === "client"
        ? await api.POST("/auth/client", {
            body: { shortname: shortName.trim(), username: userName.trim(), password },
            headers,
          })
        : await api.POST("/auth/vendor", { body: { username: userName.trim(), password }, headers });
    if (error) return { failed: failureText(error) };
    return { held: asHeld(data) };
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    onAttempt();
    const missing = loginProblem(site, values);
    setProblem(undefined);
    if (missing) return fail(missing);
    setBusy(true);
    const { held, failed } = await login();
    setBusy(false);
    if (failed !== undefined) return fail({ message: failed });
    if (!held) return;
    if (held.message === "Deactivated") return fail({ message: loginTexts.deactivated(providerName) });
    if (!held.tokenHeld) return fail({ message: loginTexts.invalidLogin });
    const userName = values.userName.trim();
    // Only a login that was accepted is remembered, so a mistyped ID does not replace a good one. The MFA step
    // applies the choice, so that "Use another account" can take it back.
    const remember = values.remember ? { shortName: values.shortName.trim(), userName } : null;
    const company = site === "client" ? values.shortName.trim() : "";
    onHeld({ site, company, userName, loginMessage: held.message ?? "Success", password: values.password, remember });
  };

  const input = (field: Field, label: string, type: string, autoComplete: string) => (
    <label htmlFor={`${id}-${field}`}>
      {label}
      <input
        id={`${id}-${field}`}
        name={field}
        type={type}
        required
        autoComplete={autoComplete}
        autoCapitalize="none"
        spellCheck={false}
        value={values[field]}
        onChange={set(field)}
        {...(field === "password" ? { onKeyDown: onKey, onKeyUp: onKey } : {})}
        aria-invalid={problem?.field === field ? true : undefined}
        aria-describedby={problem?.field === field ? `${id}-problem` : undefined}
      />
    </label>
  );

  return (
    // A real form: before the island wakes (or without script) it posts to this page, never a password in the address.
    <form ref={form} className="login-form" method="post" noValidate onSubmit={onSubmit} aria-busy={busy}>
      <div ref={notes}>
        <Notes>
          {problem ? (
            <Note kind="error">
              <span id={`${id}-problem`}>{problem.message}</span>
            </Note>
          ) : null}
        </Notes>
      </div>
      {site === "client" ? input("shortName", loginTexts.companyShortName, "text", "organization") : null}
      {input("userName", loginTexts.userId, "text", "username")}
      {input("password", loginTexts.password, show ? "text" : "password", "current-password")}
      <CapsLockHint on={capsLock} />
      <div className="check-row">
        <label htmlFor={`${id}-remember`}>
          <input
            id={`${id}-remember`}
            name="remember"
            type="checkbox"
            checked={values.remember}
            onChange={(event) => onRemember(event.currentTarget.checked)}
          />
          {loginTexts.rememberMe}
        </label>
        <label htmlFor={`${id}-show`}>
          <input
            id={`${id}-show`}
            type="checkbox"
            checked={show}
            onChange={(event) => setShow(event.currentTarget.checked)}
          />
          {loginTexts.showPassword}
        </label>
      </div>
      {/* The site rides with the submit (Enter in a field submits by this button too). */}
      <button type="submit" name="site" value={site} disabled={busy}>
        {loginTexts.submit}
      </button>
      {busy ? <BusyOverlay text={loginTexts.authenticating} /> : null}
    </form>
  );
}
