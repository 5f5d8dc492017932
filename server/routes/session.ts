// Sign out: the session ends and the browser returns to the login page.
import type { FastifyInstance } from "fastify";
import { endSession } from "#server/session.ts";

export async function sessionRoutes(app: FastifyInstance): Promise<void> {
  app.post("/session/logout", async (request, reply) => {
    endSession(request);
    return reply.header("cache-control", "no-store").redirect("/", 303);
  });
}
