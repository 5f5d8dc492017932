// Sign out: the session ends, its id is revoked (an old copy of the cookie is dead), the browser returns to login.
import type { FastifyInstance } from "fastify";
import type { AppContext } from "#server/context.ts";
import { endSession } from "#server/session.ts";

export async function sessionRoutes(app: FastifyInstance, context: AppContext): Promise<void> {
  app.post("/session/logout", async (request, reply) => {
    const sid = request.session.get("sid");
    if (sid) context.revoked.revoke(sid);
    request.log.info({ event: "sign-out" }, "signed out");
    endSession(request);
    // The notice travels in the address: Clear-Site-Data also clears any cookie set with this answer.
    return reply.header("clear-site-data", '"cache", "cookies"').redirect("/?signed-out", 303);
  });
}
