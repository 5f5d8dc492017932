// The password requirements of requirements 5 as a checklist that ticks while the user types.
import type { ReactNode } from "react";
import { requirements } from "#web/password-rules.ts";
import { passwordTexts } from "#web/texts/password.ts";

/**
 * A requirement's words as they read best on a narrow screen: a range such as "(A-Z)" never breaks at its hyphen, and
 * a list after the colon ("special character: ! @ # ...") starts a line of its own, so the set is read as one.
 */
function RequirementWords({ label }: { label: string }) {
  const colon = label.indexOf(": ");
  const words = colon < 0 ? label : label.slice(0, colon + 1);
  const parts: ReactNode[] = words.split(/(\(\S+\))/).map((part, index) =>
    index % 2 === 1 ? (
      <span key={part} className="nowrap">
        {part}
      </span>
    ) : (
      part
    ),
  );
  if (colon >= 0)
    parts.push(
      " ",
      <span key="list" className="requirement-list">
        {label.slice(colon + 2)}
      </span>,
    );
  return <>{parts}</>;
}

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
              {/* One box for the words, so that a wrapped line starts under them, not under the mark. */}
              <span>
                <RequirementWords label={rule.label} />
                <span className="visually-hidden">{` ${met ? passwordTexts.met : passwordTexts.notMet}`}</span>
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
