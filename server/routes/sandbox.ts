// Development only: the embedded sandbox's mailbox, reachable through the portal so a newcomer can copy a code.
import type { FastifyInstance } from "fastify";

/** The mailbox page runs no script; like every HTML answer of the portal it may not be framed elsewhere. */
const mailboxPolicy =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'self'";

export async function sandboxRoutes(app: FastifyInstance, { sandboxUrl }: { sandboxUrl: string }): Promise<void> {
  const relay = async (url: string, init: RequestInit) => {
    const response = await fetch(`${sandboxUrl}${url}`, { ...init, redirect: "manual" });
    return { response, body: Buffer.from(await response.arrayBuffer()) };
  };
  app.get("/sandbox/mail", async (_request, reply) => {
    const { response, body } = await relay("/sandbox/mail", {});
    return reply
      .code(response.status)
      .type(response.headers.get("content-type") ?? "text/html")
      .header("content-security-policy", mailboxPolicy)
      .header("cache-control", "no-store")
      .send(body);
  });
  app.post("/sandbox/mail/link", async (request, reply) => {
    const form = new URLSearchParams(request.body as Record<string, string>).toString();
    await relay("/sandbox/mail/link", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form,
    });
    return reply.redirect("/sandbox/mail", 303);
  });
}
