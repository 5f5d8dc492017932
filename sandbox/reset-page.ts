// The sandbox's password-reset pages: the form a mailed link opens, the page after it, and why a link was refused.
// They wear the portal's brand; the form has the portal's change-password checklist, ticked as the person types, and
// "Show passwords", by one inline script the page's policy names by its hash (docs/decisions.md).
import { escapeHtml, htmlDocument, inlineScript } from "#sandbox/html.ts";
import { RESET_LINK_LIFETIME_MS } from "#sandbox/reset-links.ts";
import { serverTexts } from "#server/texts.ts";
import { requirements } from "#web/password-rules.ts";
import { passwordTexts } from "#web/texts/password.ts";

export type RefusedLink = "used" | "expired" | "unknown";

/** The most characters a password field of the form takes (sandbox/reset-routes.ts). */
export const RESET_FIELD_MAX = 256;

/**
 * Why the form's last try was refused, by the short code the form's answer carries to the page's address
 * (`/sandbox/reset?token=…&error=mismatch`): requirements 5's words, then the portal's change call's refusal of a
 * common password, then a field missing (or not one value) or too long. The address never holds what was typed.
 */
export const resetProblems = {
  "too-short": passwordTexts.tooShort,
  mismatch: passwordTexts.mismatch,
  weak: passwordTexts.weak,
  common: serverTexts.commonPassword.message,
  personal: serverTexts.personalPassword.message,
  "new-missing": `${passwordTexts.newPassword} is required.`,
  "new-too-long": `${passwordTexts.newPassword} must be at most ${RESET_FIELD_MAX} characters.`,
  "confirm-missing": `${passwordTexts.confirmPassword} is required.`,
  "confirm-too-long": `${passwordTexts.confirmPassword} must be at most ${RESET_FIELD_MAX} characters.`,
} as const;
export type ResetProblem = keyof typeof resetProblems;

/** The problem an address's `error` names; undefined for none, or for a code the page does not know. */
export const resetProblemOf = (code: unknown): ResetProblem | undefined =>
  typeof code === "string" && Object.hasOwn(resetProblems, code) ? (code as ResetProblem) : undefined;

const TITLE = "Password reset";
const minutes = RESET_LINK_LIFETIME_MS / 60_000;
/** How long the portal keeps a session's permissions without asking the upstream (server/account/permissions.ts). */
const PORTAL_CACHE_MINUTES = 5;

/** Why a link was refused and how to ask again, on the portal's sign-in page (`signInUrl`, escaped here). */
export function refusalTexts(signInUrl: string): Record<RefusedLink, string> {
  const askAgain = `ask for a new one with "Reset Password" on the <a href="${escapeHtml(signInUrl)}">sign-in page</a>.`;
  return {
    used: `This password-reset link has already been used. Sign in with the password chosen then, or ${askAgain}`,
    expired: `This password-reset link has expired: a link works for ${minutes} minutes. Please ${askAgain}`,
    unknown:
      "This password-reset link is not valid: it may be mistyped or cut short. Each mailed link works on its own, " +
      `whatever was asked for after it: open it again from its mail, or ${askAgain}`,
  };
}

export interface ResetFormInput {
  username: string;
  token: string;
  /** The portal's address ("" on the portal's own origin), whose root signs in: where the brand leads. */
  portalUrl: string;
  /** Why the last try was refused (its code from the page's address), shown in requirements 5's words. */
  problem?: ResetProblem | undefined;
}

/**
 * Ticks the checklist from the New Password field as it is typed, by each rule's own pattern (web/password-rules.ts,
 * in the items' `data-pattern`), and shows "Show passwords", which only a script can make work. Its words are in the
 * page (the list's `data-met` and `data-unmet`): the script carries none. ASCII only, so its hash is of what is sent.
 */
const CHECKLIST_SCRIPT = `(() => {
  const form = document.querySelector("form.reset-form");
  const next = document.getElementById("new-password");
  const list = document.getElementById("password-rules");
  const show = document.getElementById("show-passwords");
  if (!form || !next || !list || !show) return;
  const tick = () => {
    for (const item of list.querySelectorAll("li[data-pattern]")) {
      const met = new RegExp(item.dataset.pattern).test(next.value);
      item.className = met ? "met" : "unmet";
      item.querySelector(".check").textContent = met ? "\\u2713" : "\\u25cb";
      item.querySelector(".state").textContent = " " + (met ? list.dataset.met : list.dataset.unmet);
    }
  };
  next.addEventListener("input", tick);
  tick();
  show.addEventListener("change", () => {
    for (const field of form.querySelectorAll("input.password")) field.type = show.checked ? "text" : "password";
  });
  show.closest("label").hidden = false;
})();`;

/** The reset form's one script, and the source its page's policy names it by. */
export const resetFormScript = inlineScript(CHECKLIST_SCRIPT);

/**
 * A requirement's words as the portal's checklist writes them (web/components/password-checklist.tsx): a range such as
 * "(A-Z)" never breaks at its hyphen, and the list after a colon starts a line of its own.
 */
function requirementWords(label: string): string {
  const colon = label.indexOf(": ");
  const words = colon < 0 ? label : label.slice(0, colon + 1);
  const ranged = escapeHtml(words).replace(/\(\S+\)/g, (range) => `<span class="nowrap">${range}</span>`);
  return colon < 0 ? ranged : `${ranged} <span class="requirement-list">${escapeHtml(label.slice(colon + 2))}</span>`;
}

/** The portal's checklist of requirements 5, every rule unmet until the page's script reads what is typed. */
function checklist(): string {
  const items = requirements
    .map(
      (rule) =>
        `<li class="unmet" data-pattern="${escapeHtml(rule.pattern)}"><span class="check" aria-hidden="true">○</span>` +
        `<span>${requirementWords(rule.label)}<span class="visually-hidden state"> ${escapeHtml(passwordTexts.notMet)}</span></span></li>`,
    )
    .join("");
  return `<div class="password-requirements">
    <p id="password-rules-heading">${escapeHtml(passwordTexts.requirementsHeading)}</p>
    <ul id="password-rules" aria-labelledby="password-rules-heading" data-met="${escapeHtml(passwordTexts.met)}" data-unmet="${escapeHtml(passwordTexts.notMet)}">${items}</ul>
  </div>`;
}

/** The form the link opens. The token rides along as a hidden field, so the page's own address is not needed. */
export function renderResetForm({ username, token, portalUrl, problem }: ResetFormInput): string {
  const alert =
    problem === undefined ? "" : `<p role="alert" id="reset-problem">${escapeHtml(resetProblems[problem])}</p>`;
  const described = problem === undefined ? "password-rules" : "reset-problem password-rules";
  return htmlDocument(
    TITLE,
    `<h1>Choose a new password</h1>
<p>For user <strong>${escapeHtml(username)}</strong>. Until you set a new one, your current password keeps working.</p>
${alert}
<form method="post" action="/sandbox/reset" class="reset-form">
  <input type="hidden" name="token" value="${escapeHtml(token)}">
  <label for="new-password">${escapeHtml(passwordTexts.newPassword)}
    <input id="new-password" class="password" name="newPassword" type="password" autocomplete="new-password" required aria-describedby="${described}">
  </label>
  <label for="confirm-password">${escapeHtml(passwordTexts.confirmPassword)}
    <input id="confirm-password" class="password" name="confirmPassword" type="password" autocomplete="new-password" required>
  </label>
  <label for="show-passwords" class="check-row" hidden><input id="show-passwords" type="checkbox"> ${escapeHtml(passwordTexts.show)}</label>
  ${checklist()}
  <button type="submit">Set New Password</button>
</form>`,
    { brandHref: `${portalUrl}/`, script: resetFormScript },
  );
}

/** What became of the sessions opened with the old password: the portal ends them at once only when it relayed the reset. */
export function sessionsAfterReset(relayed: boolean): string {
  if (relayed) return "Sessions opened with the old one have been signed out.";
  return (
    "Sessions opened with the old one can no longer reach the sandbox. The portal signs each of them out at its " +
    `next call to the sandbox: a page that needs none may still open for up to ${PORTAL_CACHE_MINUTES} minutes.`
  );
}

/** The page after a reset; `portalUrl` is the portal's address ("" on the portal's own origin), whose root signs in. */
export function renderResetDone(portalUrl: string, relayed: boolean): string {
  return htmlDocument(
    TITLE,
    `<h1>Your password has been changed</h1>
<p role="status">Sign in with your new password. ${escapeHtml(sessionsAfterReset(relayed))}</p>
<p><a href="${escapeHtml(`${portalUrl}/`)}">Go to the sign-in page</a></p>`,
    { brandHref: `${portalUrl}/` },
  );
}

export function renderRefusedLink(reason: RefusedLink, portalUrl: string): string {
  const text = refusalTexts(`${portalUrl}/`)[reason];
  return htmlDocument(TITLE, `<h1>This link cannot be used</h1>\n<p role="alert">${text}</p>`, {
    brandHref: `${portalUrl}/`,
  });
}
