// Development only: the embedded sandbox's mailbox, reachable through the portal so a newcomer can copy a code.
import formbody from "@fastify/formbody";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { csrfPlugin } from "#server/plugins/csrf.ts";

/** The mailbox page runs no script; like every HTML answer of the portal it may not be framed elsewhere. */
const mailboxPolicy =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'self'";

export async function sandboxRoutes(app: FastifyInstance, { sandboxUrl }: { sandboxUrl: string }): Promise<void> {
  const relay = async (url: string, init: RequestInit) => {
    const response = await fetch(`${sandboxUrl}${url}`, { ...init, redirect: "manual" });
    return { response, body: Buffer.from(await response.arrayBuffer()) };
  };
  // The mailbox's own form (e-mail a sign-in link) posts form fields; this scope is outside the session's, so it
  // takes the CSRF rule itself: another site's form must not mail links.
  await app.register(csrfPlugin);
  await app.register(formbody);
  const query = (request: FastifyRequest) => new URL(request.url, "http://portal.invalid").search;
  app.get("/sandbox/mail", async (request, reply) => {
    const { response, body } = await relay(`/sandbox/mail${query(request)}`, {});
    return reply
      .code(response.status)
      .type(response.headers.get("content-type") ?? "text/html")
      .header("content-security-policy", mailboxPolicy)
      .header("cache-control", "no-store")
      .send(body);
  });
  app.post("/sandbox/mail/link", async (request, reply) => {
    const form = new URLSearchParams(request.body as Record<string, string>).toString();
    const { response } = await relay("/sandbox/mail/link", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form,
    });
    // The sandbox says how it went in its redirect's query (`?link=sent` or `unknown`); the mailbox shows it.
    const outcome = new URL(response.headers.get("location") ?? "/sandbox/mail", "http://portal.invalid").search;
    return reply.redirect(`/sandbox/mail${outcome}`, 303);
  });
}
