// "Sign out" of another session and "Sign out of all other devices": a plain form posted here (the session scope's
// CSRF rule applies, as to Sign out), the current password checked by the password test call and throttled as a
// failed test is, then the sessions ended through the revocation store; back to the page with what happened.
import type { FastifyInstance, FastifyRequest } from "fastify";
import { endOtherSessions, personOf } from "#server/account/sessions.ts";
import { END_SESSIONS_PATH, type EndOutcome, outcomeQuery } from "#server/account/view.ts";
import type { AppContext } from "#server/context.ts";
import { securityEvent } from "#server/security-log.ts";
import { type Auth, endIfRefused, forgetPasswordTest, sessionId, signedIn } from "#server/session/data.ts";
import { bearer } from "#server/upstream/client.ts";
import { matchRoute, sectionAudience } from "#web/routes/table.ts";

type Body = { return?: string; session?: string; password?: string };

const bodySchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    return: { type: "string", maxLength: 2048 },
    session: { type: "string", maxLength: 64 },
    password: { type: "string", maxLength: 256 },
  },
} as const;

/** A session named by its digest (server/security-log.ts), or all the others. */
const sessionChoice = /^(all|[\w-]{22})$/;

/** The change-password page the form came from, when it is one of this person's; else their own section's. */
function pageOf(auth: Auth, target: string | undefined): string {
  const entry = target ? matchRoute(target)?.entry : undefined;
  const section = entry?.section;
  if (entry?.screen === "change-password" && section !== "public" && section && sectionAudience[section] === auth.site)
    return entry.path;
  return `/${auth.site}/users/change-password`;
}

export async function accountRoutes(app: FastifyInstance, context: AppContext): Promise<void> {
  app.post<{ Body: Body }>(END_SESSIONS_PATH, { schema: { body: bodySchema } }, async (request, reply) => {
    const auth = signedIn(request);
    if (!auth) return reply.redirect("/", 303);
    const page = pageOf(auth, request.body?.return);
    const back = (outcome: EndOutcome, count?: number) =>
      reply.redirect(`${page}?${outcomeQuery(outcome, count)}`, 303);
    const { session = "", password = "" } = request.body ?? {};
    if (!sessionChoice.test(session)) return back("unknown");
    if (!password) return back("password-required");

    const checked = await checkPassword(context, request, auth, password);
    if (checked === "ended") return reply.redirect("/", 303);
    if (checked !== "right") return back(checked);

    const sid = sessionId(request) as string;
    const which = session === "all" ? "all" : { id: session };
    const ended = await endOtherSessions(request, auth, sid, which, "session-ended.by-person");
    return ended === undefined ? back("unknown") : back("ended", ended);
  });
}

/**
 * The password test call (requirements 7.2), for the session's own user, counted in the "password-test" throttle as
 * the change-password form's test is: a wrong password counts, a right one is given back.
 */
async function checkPassword(
  context: AppContext,
  request: FastifyRequest,
  auth: Auth,
  password: string,
): Promise<"right" | "ended" | Exclude<EndOutcome, "ended">> {
  const person = personOf(auth);
  // Keyed as the change-password form's test is: by the session's own person, whose password alone opened it.
  const attempt = await context.throttle.take("password-test", request, person, "session");
  if (attempt.wait !== undefined) {
    request.log.warn({ event: "throttled", group: "password-test" }, "too many attempts");
    return "throttled";
  }
  let status: number;
  try {
    const { response } = await context.upstream.POST("/web/{audience}/password/test", {
      params: { path: { audience: auth.site } },
      body: { userId: auth.userName, password },
      headers: bearer(auth.token),
    });
    status = response.status;
  } catch (error) {
    request.log.warn({ err: error }, "password test failed");
    await attempt.giveBack(); // the upstream never saw it: not an attempt
    return "failed";
  }
  if (endIfRefused(request, context.refusedTokens)) return "ended";
  if (status >= 200 && status < 300) {
    await attempt.giveBack();
    return "right";
  }
  attempt.keep();
  // A wrong password, as a failed test on the change-password form: it cancels a test passed before it.
  if (status >= 500) return "failed";
  forgetPasswordTest(request);
  securityEvent(request, "password.test-failed", person, sessionId(request));
  return "wrong-password";
}
