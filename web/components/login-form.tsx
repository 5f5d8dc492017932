// The client or vendor login form of SPEC.md 2.2 / 4.1: required checks, remember me, the login call.
import { type FormEvent, useEffect, useRef, useState } from "react";
import { api } from "#web/api/client.ts";
import { asHeld, type HeldLogin } from "#web/api/held.ts";
import { BusyOverlay, Note, Notes } from "#web/components/note.tsx";
import type { Site } from "#web/site.ts";
import { forgetLogin, rememberedLogin, rememberLogin } from "#web/state/local-storage.ts";
import type { PendingSignIn } from "#web/state/login-page.ts";
import { errorTexts } from "#web/texts/errors.ts";
import { loginTexts } from "#web/texts/login.ts";

type Field = "shortName" | "userName" | "password";
type Problem = { message: string; field?: Field };

type Props = {
  site: Site;
  providerName: string;
  onHeld: (pending: PendingSignIn) => void;
  /** Called when the user starts a new attempt, so an older page-level message goes away. */
  onAttempt: () => void;
};

/** SPEC.md 5: client checks Company Short Name, User ID, Password in that order; vendor the last two. */
function firstMissing(site: Site, values: Record<Field, string>): Problem | undefined {
  if (site === "client" && !values.shortName.trim()) return { message: loginTexts.companyRequired, field: "shortName" };
  if (!values.userName.trim()) return { message: loginTexts.userIdRequired, field: "userName" };
  if (!values.password) return { message: loginTexts.passwordRequired, field: "password" };
  return undefined;
}

export function LoginForm({ site, providerName, onHeld, onAttempt }: Props) {
  // Fixed ids, not useId: an island hydrates as its own root, so tree-position ids would differ from the server's.
  const id = `login-${site}`;
  const [values, setValues] = useState<Record<Field, string>>({ shortName: "", userName: "", password: "" });
  const [remember, setRemember] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem>();
  const form = useRef<HTMLFormElement>(null);

  // Local storage is read after hydration only, so the server's markup and the first client render agree.
  useEffect(() => {
    const saved = rememberedLogin(site);
    if (!saved) return;
    setValues((current) => ({ ...current, shortName: saved.shortName, userName: saved.userName }));
    setRemember(true);
  }, [site]);

  const set = (field: Field) => (event: { currentTarget: HTMLInputElement }) => {
    const value = event.currentTarget.value;
    setValues((current) => ({ ...current, [field]: value }));
  };

  const onRemember = (checked: boolean) => {
    setRemember(checked);
    if (!checked) forgetLogin(site); // unchecking forgets at once, not only at the next login
  };

  /** The login call: its held answer, a failure's message, or nothing when a 401 is taking the browser away. */
  const login = async (): Promise<{ held?: HeldLogin; failed?: string }> => {
    const { shortName, userName, password } = values;
    const { data, error } =
      site === "client"
        ? await api.POST("/auth/client", { body: { shortname: shortName.trim(), username: userName.trim(), password } })
        : await api.POST("/auth/vendor", { body: { username: userName.trim(), password } });
    if (error) return { failed: error.detail ?? errorTexts.actionFailed };
    return { held: asHeld(data) };
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    onAttempt();
    const missing = firstMissing(site, values);
    setProblem(missing);
    if (missing) {
      form.current?.querySelector<HTMLInputElement>(`[name="${missing.field}"]`)?.focus();
      return;
    }
    setBusy(true);
    const { held, failed } = await login();
    setBusy(false);
    if (failed !== undefined) return setProblem({ message: failed });
    if (!held) return;
    if (held.message === "Deactivated") return setProblem({ message: loginTexts.deactivated(providerName) });
    if (!held.tokenHeld) return setProblem({ message: loginTexts.invalidLogin });
    const userName = values.userName.trim();
    // Only a login that was accepted is remembered, so a mistyped ID does not replace a good one.
    if (remember) rememberLogin(site, { shortName: values.shortName.trim(), userName });
    else forgetLogin(site);
    onHeld({ site, userName, loginMessage: held.message ?? "Success", password: values.password });
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
        value={values[field]}
        onChange={set(field)}
        aria-invalid={problem?.field === field ? true : undefined}
        aria-describedby={problem?.field === field ? `${id}-problem` : undefined}
      />
    </label>
  );

  return (
    <form ref={form} className="login-form" noValidate onSubmit={onSubmit} aria-busy={busy}>
      <Notes>
        {problem ? (
          <Note kind="error">
            <span id={`${id}-problem`}>{problem.message}</span>
          </Note>
        ) : null}
      </Notes>
      {site === "client" ? input("shortName", loginTexts.companyShortName, "text", "organization") : null}
      {input("userName", loginTexts.userId, "text", "username")}
      {input("password", loginTexts.password, "password", "current-password")}
      <label htmlFor={`${id}-remember`}>
        <input
          id={`${id}-remember`}
          name="remember"
          type="checkbox"
          checked={remember}
          onChange={(event) => onRemember(event.currentTarget.checked)}
        />
        {loginTexts.rememberMe}
      </label>
      <button type="submit" disabled={busy}>
        {loginTexts.submit}
      </button>
      {busy ? <BusyOverlay text={loginTexts.authenticating} /> : null}
    </form>
  );
}
