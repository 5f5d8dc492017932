// HTTP plumbing of the sandbox: the requirements 8 error shapes, input validation and bearer auth.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { SandboxDb } from "#sandbox/db.ts";
import type { Mailbox } from "#sandbox/mailbox.ts";
import type { ScryptCost } from "#sandbox/passwords.ts";
import { findSession, type Session } from "#sandbox/sessions.ts";
import { mediaType } from "#server/plugins/content-type.ts";

/** The error shapes the sandbox sends: requirements 8's fields, as plain strings. */
export type ErrorAnswer = { detail?: string; description?: string; errors?: Record<string, string> };

/** What every route of the sandbox works with. */
export interface SandboxContext {
  db: SandboxDb;
  now: () => number;
  mailbox: Mailbox;
  /** The portal's base URL, without a trailing slash, for links in e-mails and to its sign-in page. */
  portalUrl: string;
  /**
   * Where the sandbox's own pages (reset form, mailbox) are opened, without a trailing slash: the portal's address
   * when the portal relays them (embedded), the sandbox's own when it runs alone.
   */
  pagesUrl: string;
  /** What a password is hashed at, and an unknown user's check costs: scrypt's full cost, except in a test's sandbox. */
  passwordCost: ScryptCost;
}

/** A failure whose answer is already known; the error handler sends `body` with `statusCode`. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: ErrorAnswer,
  ) {
    super(body.detail ?? body.description ?? `HTTP ${statusCode}`);
  }
}

export const unauthorized = (): HttpError => new HttpError(401, { detail: "Unauthorized" });
export const accessDenied = (): HttpError => new HttpError(403, { detail: "Access Denied" });
export const notFound = (): HttpError => new HttpError(404, { detail: "Not Found" });
export const badRequest = (errors: Record<string, string>): HttpError => new HttpError(400, { errors });

/** One message per field; a body that is not an object at all is reported under "body". */
export function issuesToErrors(issues: readonly z.core.$ZodIssue[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) errors[key] ??= "This field is not accepted.";
      continue;
    }
    const field = issue.path.map(String).join(".") || "body";
    errors[field] ??= issue.message;
  }
  return errors;
}

/** Validates a body, params or query; failures become a 400 with `{ errors }`, never a 500. */
export function parseInput<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) throw badRequest(issuesToErrors(result.error.issues));
  return result.data;
}

/** A string field whose messages name it: required, a string, not too short or long. */
export function textField(label: string, min: number, max: number): z.ZodString {
  const messages = {
    error: (issue: z.core.$ZodRawIssue): string => {
      if (issue.input === undefined) return `${label} is required.`;
      if (issue.code === "too_small") return min === 1 ? `${label} must not be empty.` : `${label} is too short.`;
      if (issue.code === "too_big") return `${label} must be at most ${max} characters.`;
      return `${label} must be a string.`;
    },
  };
  return z.string(messages).min(min, messages).max(max, messages);
}

/** An object body that rejects unknown fields, as the OpenAPI schemas' additionalProperties: false. */
export function bodyObject<Shape extends z.core.$ZodLooseShape>(shape: Shape) {
  return z.strictObject(shape, { error: "The request body must be a JSON object." });
}

const FORM_TYPE = "application/x-www-form-urlencoded";
/** The answer to a form post of any other media type; the portal's relay sends the same. */
export const NOT_A_FORM = { detail: `Unsupported Media Type: a form posts ${FORM_TYPE}` };

/**
 * The sandbox's pages' forms post form fields and nothing else: a route's onRequest hook, so any other body (or a
 * Content-Type that is not valid) is refused, 415, before it is read; only then are the form's fields looked at.
 */
export async function requireForm(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (mediaType(request.headers["content-type"]) !== FORM_TYPE) await reply.code(415).send(NOT_A_FORM);
}

function bearerToken(request: FastifyRequest): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? "");
  return match?.[1];
}

export interface SessionRequirement {
  /** The `{site}` or `{audience}` path segment, which must be the token user's site. */
  site?: string;
  /** Whether the token must have passed MFA (or come from a link login). */
  verified: boolean;
}

/** The caller's session; 401 without a live token (or unverified when required), 403 on another site. */
export function requireSession(ctx: SandboxContext, request: FastifyRequest, requirement: SessionRequirement): Session {
  const token = bearerToken(request);
  const session = token === undefined ? undefined : findSession(ctx.db, token, ctx.now());
  if (session === undefined) throw unauthorized();
  if (requirement.verified && !session.verified) throw unauthorized();
  if (requirement.site !== undefined && requirement.site !== session.user.site) throw accessDenied();
  return session;
}

function statusOf(error: unknown): number {
  if (typeof error === "object" && error !== null && "statusCode" in error && typeof error.statusCode === "number") {
    return error.statusCode;
  }
  return 500;
}

/** Every answer of the sandbox, errors included, is JSON in the shapes of requirements 8. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setNotFoundHandler((_request, reply) => reply.code(404).send(notFound().body));
  app.setErrorHandler((error, request, reply) => {
    if (error instanceof HttpError) return reply.code(error.statusCode).send(error.body);
    const status = statusOf(error);
    const message = error instanceof Error ? error.message : "Action Failed";
    // Fastify's own 400s are about the body as a whole (not JSON, empty, ...).
    if (status === 400) return reply.code(400).send({ errors: { body: message } });
    if (status > 400 && status < 500) return reply.code(status).send({ detail: message });
    request.log.error({ err: error }, "sandbox request failed");
    return reply.code(500).send({ detail: "Internal Server Error" });
  });
}

/**
 * JSON as Fastify parses it (with its prototype-poisoning guard), except that an empty body
 * reads as no body: the body-less POSTs (MFA, link login) may still carry a JSON content type.
 */
export function installBodyParsers(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const text = typeof body === "string" ? body : body.toString("utf8");
    if (text.trim() === "") {
      done(null, undefined);
      return;
    }
    parseJson(request, text, done);
  });
  // Only the mailbox page's small form posts urlencoded; URLSearchParams is all it needs.
  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_request, body, done) => {
    const text = typeof body === "string" ? body : body.toString("utf8");
    done(null, Object.fromEntries(new URLSearchParams(text)));
  });
}
