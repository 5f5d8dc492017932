// The /web and /pdfs operations of openapi/portal.yaml: MFA, password reset request/test/change, tracking, permissions,
// PDFs. A reset's link and the pages it opens are in reset-routes.ts.
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { components } from "#openapi/schema.ts";
import {
  badRequest,
  bodyObject,
  HttpError,
  notFound,
  parseInput,
  requireSession,
  type SandboxContext,
  textField,
} from "#sandbox/http.ts";
import { DEVICE_ID } from "#sandbox/mfa-devices.ts";
import { hashPassword, meetsPasswordRules, verifyPassword } from "#sandbox/passwords.ts";
import { findPdf } from "#sandbox/pdfs.ts";
import { mailResetLink } from "#sandbox/reset-routes.ts";
import { replaceMfaCode, validateMfaCode } from "#sandbox/sessions.ts";
import { findUsersByEmail, type UserInfo, updatePassword, userInfo } from "#sandbox/users.ts";
import { recordVisit } from "#sandbox/visits.ts";

type Acknowledgement = components["schemas"]["Acknowledgement"];
type MfaVerdict = components["schemas"]["MfaVerdict"];

const OK: Acknowledgement = { ok: true };

const siteParams = z.object({ site: z.string() });
const audienceParams = z.object({ audience: z.string() });
const validateParams = z.object({ site: z.string(), code: textField("code", 1, 8) });
const fileParams = z.object({ fileName: z.string() });
/** The device the portal says the code comes from (openapi/portal.yaml's X-Device-Id); other headers are not read. */
const deviceHeaders = z.object({
  "x-device-id": z.string().regex(DEVICE_ID, "X-Device-Id must be 16 to 64 letters, digits, - or _.").optional(),
});

const resetSchema = bodyObject({
  clientShortName: textField("Company Short Name", 0, 64),
  emailAddress: textField("Email Address", 1, 254),
}) satisfies z.ZodType<components["schemas"]["PasswordResetRequest"]>;

const passwordTestSchema = bodyObject({
  userId: textField("User ID", 1, 128),
  password: textField("Current Password", 1, 256),
}) satisfies z.ZodType<components["schemas"]["PasswordTestRequest"]>;

const passwordChangeSchema = bodyObject({
  password: textField("New Password", 1, 256),
}) satisfies z.ZodType<components["schemas"]["PasswordChangeRequest"]>;

const pageVisitSchema = bodyObject({
  page: textField("page", 1, 2048),
}) satisfies z.ZodType<components["schemas"]["PageVisit"]>;

function registerMfaRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.post("/web/:site/mfa/generate", async (request): Promise<Acknowledgement> => {
    const { site } = parseInput(siteParams, request.params);
    const session = requireSession(ctx, request, { site, verified: false });
    const { user } = session;
    const code = replaceMfaCode(ctx.db, session, ctx.now());
    ctx.mailbox.send({
      to: user.email,
      subject: "Your verification code",
      body: `Your verification code is ${code}. It expires in 10 minutes.`,
    });
    return OK;
  });

  app.post("/web/:site/mfa/validate/:code", async (request): Promise<MfaVerdict> => {
    const { site, code } = parseInput(validateParams, request.params);
    const { "x-device-id": deviceId } = parseInput(deviceHeaders, request.headers);
    const session = requireSession(ctx, request, { site, verified: false });
    const passed = validateMfaCode(ctx.db, session, code, deviceId, ctx.now());
    return [{ text: passed ? "Passed" : "Failed" }];
  });
}

function registerPasswordRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.post("/web/reset-pwd", async (request): Promise<Acknowledgement> => {
    const body = parseInput(resetSchema, request.body);
    const shortname = body.clientShortName.trim();
    const email = body.emailAddress.trim();
    const users = (
      shortname === ""
        ? findUsersByEmail(ctx.db, "vendor", "", email)
        : findUsersByEmail(ctx.db, "client", shortname, email)
    ).filter((user) => user.loginMessage !== "Deactivated");
    // Nothing about the account changes here: its password works until a mailed link sets another. Neither path
    // hashes a password any more, so no scrypt is left whose presence the answer time could give away.
    for (const user of users) mailResetLink(ctx, user);
    return OK;
  });

  app.post("/web/:audience/password/test", async (request): Promise<Acknowledgement> => {
    const { audience } = parseInput(audienceParams, request.params);
    const { user } = requireSession(ctx, request, { site: audience, verified: true });
    const body = parseInput(passwordTestSchema, request.body);
    const sameUser = body.userId.toLowerCase() === user.username.toLowerCase();
    const passwordMatches = await verifyPassword(body.password, user.passwordHash);
    if (!sameUser || !passwordMatches) {
      throw new HttpError(400, { description: "The current password is not correct." });
    }
    return OK;
  });

  app.post("/web/:audience/password/change", async (request): Promise<Acknowledgement> => {
    const { audience } = parseInput(audienceParams, request.params);
    const { user } = requireSession(ctx, request, { site: audience, verified: true });
    const { password } = parseInput(passwordChangeSchema, request.body);
    if (!meetsPasswordRules(password)) {
      throw badRequest({ password: "Password does not meet password requirements" });
    }
    if (await verifyPassword(password, user.passwordHash)) {
      throw badRequest({ password: "The new password must differ from the current one." });
    }
    updatePassword(ctx.db, user.id, await hashPassword(password, ctx.passwordCost), "Success");
    return OK;
  });
}

export function registerWebRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  registerMfaRoutes(app, ctx);
  registerPasswordRoutes(app, ctx);

  app.post("/web/track", async (request): Promise<Acknowledgement> => {
    const { user } = requireSession(ctx, request, { verified: true });
    const { page } = parseInput(pageVisitSchema, request.body);
    recordVisit(ctx.db, user.id, page, ctx.now());
    return OK;
  });

  app.get("/web/:site/user-info", async (request): Promise<UserInfo> => {
    const { site } = parseInput(siteParams, request.params);
    const { user } = requireSession(ctx, request, { site, verified: true });
    return userInfo(user);
  });

  app.get("/pdfs/:fileName", async (request, reply) => {
    const { fileName } = parseInput(fileParams, request.params);
    const pdf = findPdf(fileName);
    if (pdf === undefined) throw notFound();
    return reply
      .type("application/pdf")
      .header("content-disposition", `inline; filename="${fileName}"`)
      .header("cache-control", "public, max-age=3600")
      .send(pdf);
  });
}
