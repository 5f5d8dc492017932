// Sign out: the session ends and its id is revoked (an old copy of the cookie is dead), the browser returns to login.
// And the idle timeout's two routes: "Stay signed in", and the check a signed-in page makes at its idle limit. Asked
// by the warning's script (Accept: application/json), each answers the seconds left instead of moving the page, or why
// the session ended; the script asks /session/idle every few seconds, which costs the session no write.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { permissionsFor } from "#server/account/permissions.ts";
import { sessionDigest } from "#server/account/security-log.ts";
import type { AppContext } from "#server/context.ts";
import { taxBridgeOn } from "#server/loaders/screen.ts";
import { idleLeft } from "#server/render/page-reply.ts";
import { safePath } from "#server/security/safe-path.ts";
import { endedBy, pastMfa, sessionId, signedIn, taxBridgeEntered } from "#server/session/fields.ts";
import { expire } from "#server/session/lifecycle.ts";
import { byItself } from "#server/session/plugin.ts";
import { endNotice } from "#server/session/why-ended.ts";
import { markSeen } from "#server/session/writes.ts";
import type { SessionLeft, SessionOver } from "#web/protocol/session-end.ts";
import { opens } from "#web/routes/opens.ts";
import type { RouteEntry } from "#web/routes/row.ts";
import { matchRoute, sectionAudience } from "#web/routes/table.ts";
import { landingPath, MAX_RETURN_LENGTH, pathnameOf, signInUrl } from "#web/site.ts";
import { errorTexts } from "#web/texts/errors.ts";

type Return = { return?: string };

/** `return` is one same-origin path at most; given twice, or as anything but text, the request is refused. */
const returnSchema = {
  type: "object",
  additionalProperties: false,
  properties: { return: { type: "string", maxLength: MAX_RETURN_LENGTH } },
} as const;

export async function sessionRoutes(app: FastifyInstance, context: AppContext): Promise<void> {
  app.post("/session/logout", async (request, reply) => {
    // "Use another account" on the MFA step cancels a sign-in: back to its tab, without the signed-out notice.
    const cancelled = (request.body as { intent?: unknown } | undefined)?.intent === "use-another-account";
    const site = request.auth?.site;
    // A cancelled sign-in goes back to the page it began on, so one begun in tax-bridge mode may begin in it again.
    const page = taxBridgeEntered(request) ? "/tax-bridge/login" : "/";
    request.log.info({ event: "sign-out", cancelled }, "signed out");
    // The sign-out's event is the ending's own (server/session/why-ended.ts), written as the record ends.
    expire(request, "signed-out");
    // The notice travels in the address. The session's cookie is expired by name: `"cookies"` would also delete the
    // device cookie (so the owner's own budget of attempts) and every other application's cookies on the host.
    const to = cancelled ? (site ? `${page}?activeSite=${site.toUpperCase()}` : page) : "/?signed-out";
    return reply.header("clear-site-data", '"cache"').redirect(to, 303);
  });

  /**
   * For the warning's script: the seconds left before the idle limit and which session answers; once the session has
   * ended, 401 with why, in the sign-in page's words. A request that brought no session learns only that.
   */
  const fromScript = (request: FastifyRequest) => request.headers.accept === "application/json";
  const secondsLeft = (request: FastifyRequest, reply: FastifyReply) => {
    const left = idleLeft(request, context, context.now());
    const sid = sessionId(request);
    if (left !== undefined && left > 0 && sid)
      return reply.send({ idleSeconds: Math.floor(left), session: sessionDigest(sid) } satisfies SessionLeft);
    // Its notice stays in the cookie for the sign-in page: asking is no reading of it.
    // At the very limit the session is still there, though no time is left: it is idle.
    const ended = endedBy(request) ?? (pastMfa(request) ? "idle" : "not-signed-in");
    const over: SessionOver = { detail: endNotice(context.config, ended) ?? errorTexts.sessionExpired, ended };
    return reply.code(401).send(over);
  };

  /** Back to the page the person was on, when it is a path of this site; else their landing page. */
  const back = (request: FastifyRequest, target: string | undefined) => {
    const auth = pastMfa(request);
    // Ended: the sign-in page, which brings the person back to the page they were on.
    const path = target && safePath(target);
    if (!auth) return signInUrl(path || undefined);
    return path || landingPath(auth.site, taxBridgeOn(context, request));
  };

  // Where a sign-in lands: the page first asked for, when it is a page of this user's section that their
  // gate opens; else 2.7's landing, when its gate opens; else the section's home (never Access Denied at once).
  app.get<{ Querystring: Return }>(
    "/session/landing",
    { config: { linkTarget: true }, schema: { querystring: returnSchema } },
    async (request, reply) => {
      const auth = signedIn(request);
      if (!auth) return reply.redirect("/", 303);
      const permissions = await permissionsFor(context, request);
      const home = `/${auth.site}/home`;
      // Without permissions only a page without a gate opens (a gated one would say it could not check them).
      const opensFor = (entry: RouteEntry) =>
        permissions ? opens(entry, permissions) : entry.gate === undefined && entry.screen !== "forbidden";
      const opensHere = (target: string | undefined) => {
        const path = target && safePath(target);
        const match = path ? matchRoute(pathnameOf(path)) : undefined;
        const section = match?.entry.section;
        const ours = section !== undefined && section !== "public" && sectionAudience[section] === auth.site;
        return ours && match && opensFor(match.entry) ? path : undefined;
      };
      const landing = landingPath(auth.site, taxBridgeOn(context, request));
      const target = opensHere(request.query.return) ?? opensHere(landing) ?? home;
      return reply.redirect(target, 303);
    },
  );

  // "Stay signed in": the person's own action, so the idle time starts again now.
  app.post<{ Body: Return }>("/session/stay", { schema: { body: returnSchema } }, async (request, reply) => {
    if (pastMfa(request)) markSeen(request, context.now(), 0);
    if (fromScript(request)) return secondsLeft(request, reply);
    return reply.redirect(back(request, request.body?.return), 303);
  });

  // Asked by the page's Refresh at its idle limit; not an activity, nor is the load of the page it sends a live session
  // back to (server/session/plugin.ts). An ended session has been ended (with the idle notice) by the session hook
  // before this runs, so the person lands on the sign-in page that says why.
  app.get<{ Querystring: Return }>(
    "/session/idle",
    { config: { activity: false }, schema: { querystring: returnSchema } },
    async (request, reply) => {
      if (fromScript(request)) return secondsLeft(request, reply);
      const to = back(request, request.query.return);
      return reply.redirect(pastMfa(request) ? byItself(to) : to, 303);
    },
  );
}
