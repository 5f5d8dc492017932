// Sign-in operations of openapi/portal.yaml: by password (client, vendor) and by one-time link.
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { components } from "#openapi/schema.ts";
import { bodyObject, parseInput, type SandboxContext, textField } from "#sandbox/http.ts";
import { randomToken, verifyPassword } from "#sandbox/passwords.ts";
import { consumeLinkLogin, issueToken } from "#sandbox/sessions.ts";
import { findUser, type Site, type UserRecord } from "#sandbox/users.ts";

type LoginResponse = components["schemas"]["LoginResponse"];
type LinkLoginResponse = components["schemas"]["LinkLoginResponse"];

const clientLoginSchema = bodyObject({
  shortname: textField("Company Short Name", 1, 64),
  username: textField("User ID", 1, 128),
  password: textField("Password", 1, 256),
}) satisfies z.ZodType<components["schemas"]["ClientLoginRequest"]>;

const vendorLoginSchema = bodyObject({
  username: textField("User ID", 1, 128),
  password: textField("Password", 1, 256),
}) satisfies z.ZodType<components["schemas"]["VendorLoginRequest"]>;

const linkLoginQuery = z.object({ uuid: textField("uuid", 1, 128) });

async function signIn(ctx: SandboxContext, user: UserRecord | undefined, password: string): Promise<LoginResponse> {
  // Always exactly one scrypt, whether or not the user exists.
  const passwordMatches = await verifyPassword(password, user?.passwordHash, ctx.passwordCost);
  if (user === undefined || !passwordMatches) return {};
  // The portal needs a token to show the deactivation message, but this one is never stored.
  if (user.loginMessage === "Deactivated") return { token: randomToken(), message: "Deactivated" };
  return { token: issueToken(ctx.db, user.id, ctx.now(), false), message: user.loginMessage };
}

function linkLogin(ctx: SandboxContext, query: unknown, site: Site): LinkLoginResponse {
  const { uuid } = parseInput(linkLoginQuery, query);
  const user = consumeLinkLogin(ctx.db, uuid, site, ctx.now());
  // The link itself came by e-mail, so it counts as the device verification.
  // It answers the account's state as a password login does, and whose account it is.
  if (user === undefined) return {};
  const token = issueToken(ctx.db, user.id, ctx.now(), true);
  const company = site === "client" ? { shortname: user.shortname } : {};
  return { token, message: user.loginMessage, username: user.username, ...company };
}

export function registerAuthRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.post("/auth/client", async (request): Promise<LoginResponse> => {
    const body = parseInput(clientLoginSchema, request.body);
    const user = findUser(ctx.db, { site: "client", shortname: body.shortname, username: body.username });
    return signIn(ctx, user, body.password);
  });

  app.post("/auth/vendor", async (request): Promise<LoginResponse> => {
    const body = parseInput(vendorLoginSchema, request.body);
    const user = findUser(ctx.db, { site: "vendor", username: body.username });
    return signIn(ctx, user, body.password);
  });

  app.post("/auth/client-token", async (request) => linkLogin(ctx, request.query, "client"));
  app.post("/auth/vendor-token", async (request) => linkLogin(ctx, request.query, "vendor"));
}
