// Sandbox-only routes under /sandbox/: the mailbox, link-login minting and the levers tests pull.
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { sendHtml } from "#sandbox/html.ts";
import {
  badRequest,
  bodyObject,
  notFound,
  parseInput,
  requireForm,
  type SandboxContext,
  textField,
} from "#sandbox/http.ts";
import { type LinkNotice, renderMailPage } from "#sandbox/mail-page.ts";
import { type Permissions, permissionsPatchProblem } from "#sandbox/permissions-shape.ts";
import { SEED_PASSWORD, seedAccounts } from "#sandbox/seed.ts";
import { mintLinkLogin, revokeTokens, signInLinksThrottled } from "#sandbox/sessions.ts";
import { findUser, siteSchema, type UserInfo, type UserRecord, updatePermissions, userInfo } from "#sandbox/users.ts";
import { listVisits } from "#sandbox/visits.ts";
import { trimNames } from "#web/protocol/typed-names.ts";
import { SIGN_IN_LINK_HOURS } from "#web/texts/link-login.ts";

const userSelector = bodyObject({
  site: siteSchema,
  username: textField("username", 1, 128),
  /** Only needed when two companies have a client user of the same name. */
  shortname: textField("shortname", 1, 64).optional(),
});

const mailQuery = z.object({ to: z.string().optional(), link: z.string().optional() });

const permissionsParams = z.object({ site: siteSchema, shortname: z.string(), username: z.string() });

/** A partial UserInfo, checked against the spec's shape (sandbox/permissions-shape.ts); `loaded` is dropped. */
function permissionsPatch(body: unknown): Partial<Permissions> {
  const problem = permissionsPatchProblem(body);
  if (problem) {
    const field = problem.field.replace(/^\//, "").replaceAll("/", ".") || "body";
    throw badRequest({
      [field]:
        problem.rule === "additionalProperties"
          ? "This field is not accepted."
          : `Not a valid value (${problem.rule}).`,
    });
  }
  const { loaded: _loaded, ...patch } = body as Partial<UserInfo>;
  return patch;
}

function selectUser(ctx: SandboxContext, body: unknown): UserRecord {
  const selector = parseInput(userSelector, body);
  const user = findUser(ctx.db, selector);
  if (user === undefined) throw notFound();
  return user;
}

/**
 * The mailbox form's fields as the selector reads them: the names trimmed as the portal trims a sign-in's
 * (`trimNames`); its Company Short Name field left blank (always, for a vendor) names no company, as the JSON routes'
 * absent `shortname` does.
 */
function typedSelector(body: unknown): unknown {
  const trimmed = trimNames(body);
  if (typeof trimmed !== "object" || trimmed === null) return trimmed;
  const { shortname, ...rest } = trimmed as Record<string, unknown>;
  return shortname === "" ? rest : trimmed;
}

/** Mints a one-time sign-in link for the user and e-mails it, as the provider would. */
function sendSignInLink(ctx: SandboxContext, user: UserRecord): { uuid: string; url: string } {
  const uuid = mintLinkLogin(ctx.db, user.id, ctx.now());
  const type = user.site === "vendor" ? "Vendor" : "Client";
  const url = `${ctx.portalUrl}/login?${new URLSearchParams({ uuid, type }).toString()}`;
  ctx.mailbox.send({
    to: user.email,
    subject: "Your sign-in link",
    body: [
      `Open this link to sign in to the portal as ${user.username}:`,
      "",
      url,
      "",
      `The link works once and expires in ${SIGN_IN_LINK_HOURS} hours.`,
    ].join("\n"),
  });
  return { uuid, url };
}

export function registerSandboxRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.get("/sandbox/mail", async (request, reply) => {
    const { link, to } = parseInput(mailQuery, request.query);
    const notice: LinkNotice = link === "sent" || link === "unknown" || link === "throttled" ? link : undefined;
    // One person's mail only, when asked: on a busy public demo, others' mail may push theirs out of the newest 50.
    const recipient = to?.trim() || undefined;
    const html = renderMailPage({
      mails: ctx.mailbox.list(recipient),
      to: recipient,
      accounts: seedAccounts,
      seedPassword: SEED_PASSWORD,
      notice,
    });
    return sendHtml(reply, 200, html);
  });

  app.post("/sandbox/mail/link", { onRequest: requireForm }, async (request, reply) => {
    const selector = userSelector.safeParse(typedSelector(request.body));
    const user = selector.success ? findUser(ctx.db, selector.data) : undefined;
    if (user === undefined) return reply.redirect("/sandbox/mail?link=unknown", 303);
    // The form is open to anyone who reaches the mailbox: it may not mail one address without end.
    if (signInLinksThrottled(ctx.db, user.id, ctx.now())) return reply.redirect("/sandbox/mail?link=throttled", 303);
    sendSignInLink(ctx, user);
    return reply.redirect("/sandbox/mail?link=sent", 303);
  });

  app.get("/sandbox/mail.json", async (request) => {
    const { to } = parseInput(mailQuery, request.query);
    return ctx.mailbox.list(to);
  });

  app.post("/sandbox/link-login", async (request) => sendSignInLink(ctx, selectUser(ctx, request.body)));

  app.get("/sandbox/visits.json", async () => listVisits(ctx.db));

  app.post("/sandbox/tokens/revoke", async (request) => {
    const user = selectUser(ctx, request.body);
    return { revoked: revokeTokens(ctx.db, user.id) };
  });

  app.put("/sandbox/users/:site/:shortname/:username/permissions", async (request): Promise<UserInfo> => {
    const params = parseInput(permissionsParams, request.params);
    const user = findUser(ctx.db, {
      site: params.site,
      shortname: params.shortname === "-" ? "" : params.shortname,
      username: params.username,
    });
    if (user === undefined) throw notFound();
    const patch = permissionsPatch(request.body);
    const permissions = { ...user.permissions, ...patch };
    updatePermissions(ctx.db, user.id, permissions);
    return userInfo({ ...user, permissions });
  });
}
