// Development only: the embedded sandbox's pages, reachable through the portal so a newcomer can copy a code from the
// mailbox and open a password-reset link.
import formbody from "@fastify/formbody";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { passwordWasReset } from "#server/account/sessions.ts";
import { FORM_TYPE, requireForm } from "#server/plugins/content-type.ts";
import { csrfPlugin } from "#server/plugins/csrf.ts";
import { faultOfError, faultStatus, readCapped } from "#server/upstream/answer-reader.ts";

/**
 * The sandbox's pages load nothing; like every HTML answer of the portal they may not be framed elsewhere. A page runs
 * a script only when the sandbox's own policy names it by its hash (the reset form's checklist): those hashes are all
 * the relay takes from it, never a host, a nonce or 'unsafe-inline'.
 */
const pagePolicy =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'self'";
const scriptHash = /^'sha(256|384|512)-[A-Za-z0-9+/]+={0,2}'$/;

/** The policy for a relayed page: the pages' own, with the inline scripts the sandbox's policy allowed by hash. */
export function relayedPolicy(sandboxPolicy: string | null): string {
  const directive = (sandboxPolicy ?? "")
    .split(";")
    .map((part) => part.trim().split(/\s+/))
    .find(([name]) => name?.toLowerCase() === "script-src");
  const hashes = (directive ?? []).slice(1).filter((source) => scriptHash.test(source));
  return hashes.length === 0 ? pagePolicy : `${pagePolicy}; script-src ${hashes.join(" ")}`;
}

const base = "http://portal.invalid";
/** Set by the sandbox on a reset that set a password: the person, so their sessions end at once. */
const RESET_PERSON_HEADER = "x-sandbox-password-reset";
const resetPerson = z.object({
  site: z.enum(["client", "vendor"]),
  company: z.string().max(64).optional(),
  userName: z.string().min(1).max(128),
});

/** The person the sandbox's answer says it reset, or undefined. */
function resetPersonOf(header: string | null): z.infer<typeof resetPerson> | undefined {
  if (header === null) return undefined;
  try {
    const parsed = resetPerson.safeParse(JSON.parse(header));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The most of a sandbox page the relay holds: its pages are a few kilobytes, its mailbox shows 50 mails. */
export const RELAYED_BYTES = 256 * 1024;

/** A parsed form's fields as the sandbox reads them again: strings, and each value of a repeated field. */
export function formFields(body: unknown): URLSearchParams {
  const fields = new URLSearchParams();
  if (typeof body !== "object" || body === null || Array.isArray(body)) return fields;
  for (const [name, value] of Object.entries(body)) {
    for (const item of Array.isArray(value) ? value : [value]) if (typeof item === "string") fields.append(name, item);
  }
  return fields;
}

/** What the relay says when the sandbox's answer cannot be passed on. */
const sandboxTexts = {
  tooLarge: "The sandbox's answer is too large to relay.",
  noAnswer: "The sandbox did not answer. Please try again.",
} as const;

export async function sandboxRoutes(
  app: FastifyInstance,
  { sandboxUrl, timeoutMs }: { sandboxUrl: string; timeoutMs: number },
): Promise<void> {
  // The pages' forms (e-mail a sign-in link, set a new password) post form fields; this scope is outside the
  // session's, so it takes the CSRF rule itself: another site's form must not mail links or set passwords. Its refusal
  // is the portal's page, by the error handler of the scope it is registered in (server/app.ts, `refusedForm`).
  await app.register(csrfPlugin);
  await app.register(formbody);

  /**
   * The sandbox's answer to the same request, passed on with the portal's headers for a page. Its referrer policy is
   * the sandbox's own (sandbox/html.ts): a reset page's address holds its token.
   */
  const relay = async (request: FastifyRequest, reply: FastifyReply) => {
    const { pathname, search } = new URL(request.url, base);
    const form = request.method === "POST";
    // The same bounds as an upstream answer's: a sandbox that hangs or floods is cut off, never held on to.
    const signal = AbortSignal.timeout(timeoutMs);
    let response: Response;
    let body: Buffer;
    try {
      response = await fetch(`${sandboxUrl}${pathname}${search}`, {
        method: request.method,
        redirect: "manual",
        signal,
        ...(form ? { headers: { "content-type": FORM_TYPE }, body: formFields(request.body).toString() } : {}),
      });
      // Node's web streams are async iterables, which the DOM library's type of `body` does not say.
      const stream = response.body as AsyncIterable<Uint8Array> | null;
      body = await readCapped(stream, RELAYED_BYTES, signal, response.headers.get("content-length"));
    } catch (error) {
      const fault = signal.aborted ? "timeout" : faultOfError(error);
      const text = fault === "too-large" ? sandboxTexts.tooLarge : sandboxTexts.noAnswer;
      return reply.code(faultStatus(fault)).type("text/plain").send(text);
    }
    // A form's answer is a redirect to another sandbox page (its outcome in the query): only such a path is followed.
    const location = response.headers.get("location");
    // A reset set a password: the portal ends the person's sessions now, not at their next upstream call.
    const reset = form ? resetPersonOf(response.headers.get(RESET_PERSON_HEADER)) : undefined;
    if (reset !== undefined) await passwordWasReset(request, reset);
    if (location !== null) {
      const target = new URL(location, base);
      const page = target.origin === base && target.pathname.startsWith("/sandbox/");
      return reply.redirect(page ? `${target.pathname}${target.search}` : "/sandbox/mail", 303);
    }
    return reply
      .code(response.status)
      .type(response.headers.get("content-type") ?? "text/html")
      .header("content-security-policy", relayedPolicy(response.headers.get("content-security-policy")))
      .header("referrer-policy", "strict-origin")
      .send(body);
  };

  app.get("/sandbox/mail", relay);
  app.post("/sandbox/mail/link", { onRequest: requireForm }, relay);
  // A password-reset link opens its form (the token in the query), which posts the new password back.
  app.get("/sandbox/reset", relay);
  app.post("/sandbox/reset", { onRequest: requireForm }, relay);
  app.get("/sandbox/reset/done", relay);
}
