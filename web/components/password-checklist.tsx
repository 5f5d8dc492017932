// The password requirements of SPEC.md section 5 as a checklist that ticks while the user types.
import { requirements } from "#web/password-rules.ts";
import { passwordTexts } from "#web/texts/password.ts";

export function PasswordChecklist({ id, password }: { id: string; password: string }) {
  return (
    <div className="password-requirements">
      <p id={`${id}-heading`}>{passwordTexts.requirementsHeading}</p>
      {/* Not a live region: announcing every keystroke would drown the typing; it is read on demand. */}
      <ul id={id} aria-labelledby={`${id}-heading`}>
        {requirements.map((rule) => {
          const met = rule.met(password);
          return (
            <li key={rule.id} className={met ? "met" : "unmet"}>
              <span className="check" aria-hidden="true">
                {met ? "✓" : "○"}
              </span>
              {rule.label}
              <span className="visually-hidden">{` ${met ? passwordTexts.met : passwordTexts.notMet}`}</span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
