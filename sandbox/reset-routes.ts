// The sandbox's password reset after the request: the mail with a one-time link, and the pages that link opens.
import type { FastifyInstance, FastifyReply } from "fastify";
import { z } from "zod";
import { sendHtml } from "#sandbox/html.ts";
import { requireForm, type SandboxContext, textField } from "#sandbox/http.ts";
import { hashPassword } from "#sandbox/passwords.ts";
import {
  findResetLink,
  issueResetLink,
  RESET_LINK_LIFETIME_MS,
  type ResetLink,
  spendResetLink,
} from "#sandbox/reset-links.ts";
import {
  RESET_FIELD_MAX,
  type ResetProblem,
  renderRefusedLink,
  renderResetDone,
  renderResetForm,
  resetFormScript,
  resetProblemOf,
} from "#sandbox/reset-page.ts";
import type { UserRecord } from "#sandbox/users.ts";
import { guessedAs } from "#server/actions/common-passwords.ts";
import { newPasswordProblem } from "#web/password-rules.ts";
import { passwordTexts } from "#web/texts/password.ts";

const FORM_PATH = "/sandbox/reset";
const DONE_PATH = "/sandbox/reset/done";
/**
 * On the answer to a reset that set a password: whose, as the portal names a person ({ site, company, userName }).
 * The portal relays the reset form, so it learns of the reset at once and ends that person's sessions.
 */
export const RESET_PERSON_HEADER = "x-sandbox-password-reset";

// A token is 43 characters; anything malformed is simply a link that opens nothing.
const tokenField = z.object({ token: z.string().max(128) }).catch({ token: "" });
const passwordFields = z.object({
  newPassword: textField("New Password", 0, RESET_FIELD_MAX),
  confirmPassword: textField("Confirm Password", 0, RESET_FIELD_MAX),
});

/** The reset page's GET for a link, with why its form's last try was refused: where every answer to the form leads. */
const formPage = (token: string, problem?: ResetProblem) =>
  `${FORM_PATH}?${new URLSearchParams({ token, ...(problem ? { error: problem } : {}) }).toString()}`;

/**
 * E-mails the user a new one-time link, beside their earlier ones; nothing when the account had its share of links
 * lately (the answer to the request is the same). Their password is untouched until a link is used.
 */
export function mailResetLink(ctx: SandboxContext, user: UserRecord): void {
  const token = issueResetLink(ctx.db, user.id, ctx.now());
  if (token === undefined) return;
  const url = `${ctx.pagesUrl}/sandbox/reset?${new URLSearchParams({ token }).toString()}`;
  ctx.mailbox.send({
    to: user.email,
    subject: "Reset your password",
    body: [
      `A password reset was requested for user ${user.username}.`,
      "",
      "Open this link to choose a new password:",
      "",
      url,
      "",
      `The link works once and expires in ${RESET_LINK_LIFETIME_MS / 60_000} minutes. Until you use it, your current`,
      "password keeps working. If you did not ask for this, ignore this mail: nothing has changed.",
    ].join("\n"),
  });
}

/**
 * Where the pages' "sign-in page" link points: through the portal that relays them, its own root ("/", whatever
 * address the browser used); from a sandbox run alone, the portal's address.
 */
const signInBase = (ctx: SandboxContext) => (ctx.pagesUrl === ctx.portalUrl ? "" : ctx.portalUrl);

function refuse(
  ctx: SandboxContext,
  reply: FastifyReply,
  link: Exclude<ResetLink, { state: "pending" }>,
): FastifyReply {
  // 410 for a link that was real but is spent; 404 for one that never opened anything (or no longer does).
  return sendHtml(reply, link.state === "unknown" ? 404 : 410, renderRefusedLink(link.state, signInBase(ctx)));
}

/**
 * The first reason the form's passwords cannot be set, by the portal's one policy: requirements 5's rules in their
 * words, then the portal's change call's own refusal of an easily guessed password (the same list of common passwords,
 * with the user's name and company as known words).
 */
function passwordProblem(body: unknown, user: UserRecord): { problem?: ResetProblem; password?: string } {
  const fields = passwordFields.safeParse(body);
  if (!fields.success) {
    const issue = fields.error.issues[0];
    const field = issue?.path[0] === "confirmPassword" ? "confirm" : "new";
    return { problem: issue?.code === "too_big" ? `${field}-too-long` : `${field}-missing` };
  }
  const problem = ruleProblems.get(newPasswordProblem(fields.data.newPassword, fields.data.confirmPassword));
  if (problem !== undefined) return { problem };
  const guessed = guessedAs(fields.data.newPassword, [user.username, user.shortname]);
  if (guessed) return { problem: guessed };
  return { password: fields.data.newPassword };
}

/** Requirements 5's words (web/password-rules.ts) by the code the page's address carries for each. */
const ruleProblems = new Map<string | undefined, ResetProblem>([
  [passwordTexts.tooShort, "too-short"],
  [passwordTexts.mismatch, "mismatch"],
  [passwordTexts.weak, "weak"],
]);

export function registerResetRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  // Opening the link only reads it: a mail scanner that follows links must not spend it.
  // Its form's refused try comes back here too, the reason's code in the address (`error`), shown as the page's alert.
  app.get(FORM_PATH, async (request, reply) => {
    const { token } = tokenField.parse(request.query);
    const link = findResetLink(ctx.db, token, ctx.now());
    if (link.state !== "pending") return refuse(ctx, reply, link);
    const problem = resetProblemOf((request.query as Record<string, unknown> | undefined)?.error);
    const form = renderResetForm({ username: link.user.username, token, portalUrl: signInBase(ctx), problem });
    return sendHtml(reply, 200, form, [resetFormScript.source]);
  });

  // Post/redirect/get, as the portal's forms: every answer is a 303 to a GET, so Back or Reload never posts again. A
  // refused try goes back to the link's page, which says why (a spent or unknown link: its refusal there).
  app.post(FORM_PATH, { onRequest: requireForm }, async (request, reply) => {
    const { token } = tokenField.parse(request.body);
    const link = findResetLink(ctx.db, token, ctx.now());
    if (link.state !== "pending") return reply.redirect(formPage(token), 303);
    const { problem, password } = passwordProblem(request.body, link.user);
    if (password === undefined) return reply.redirect(formPage(token, problem), 303);
    // Hashed before the transaction that spends the link; a use that raced this one in between wins, this one is told.
    const used = spendResetLink(ctx.db, token, await hashPassword(password, ctx.passwordCost), ctx.now());
    if (used.state !== "pending") return reply.redirect(formPage(token), 303);
    const { site, shortname, username } = used.user;
    reply.header(RESET_PERSON_HEADER, JSON.stringify({ site, company: shortname || undefined, userName: username }));
    return reply.redirect(DONE_PATH, 303);
  });

  // Relayed by the portal, the reset ended the person's portal sessions at once; alone, the sandbox cannot tell it.
  app.get(DONE_PATH, async (_request, reply) =>
    sendHtml(reply, 200, renderResetDone(signInBase(ctx), ctx.pagesUrl === ctx.portalUrl)),
  );
}
