// "Sign out" of another session and "Sign out of all other devices": a plain form posted here (the session scope's
// CSRF rule applies, as to Sign out), the current password checked by the change-password form's own password test
// (server/actions/password-test.ts), then the sessions ended through the revocation store; back to the page with what
// happened, at the sessions section. "Forget" a browser that skips the code, or all of them: a plain form posted here
// too, with no password (it only takes trust away), for the person's own list only.
import type { FastifyInstance } from "fastify";
import { personOf } from "#server/account/person.ts";
import { endOtherSessions } from "#server/account/sessions.ts";
import { testPassword } from "#server/actions/password-test.ts";
import type { AppContext } from "#server/context.ts";
import {
  END_SESSIONS_PATH,
  type EndOutcome,
  FORGET_DEVICES_PATH,
  outcomeAddress,
} from "#server/loaders/account-view.ts";
import { type Auth, sessionId, signedIn } from "#server/session/fields.ts";
import { noteEndResult } from "#server/session/writes.ts";
import { deviceDigest } from "#server/stores/trusted-devices.ts";
import { matchRoute, sectionAudience } from "#web/routes/table.ts";

type Body = { return?: string; session?: string; password?: string; device?: string };

const bodySchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    return: { type: "string", maxLength: 2048 },
    session: { type: "string", maxLength: 64 },
    password: { type: "string", maxLength: 256 },
    device: { type: "string", maxLength: 64 },
  },
} as const;

/** What the page says of a password test that did not pass. */
const testOutcomes = { wrong: "wrong-password", throttled: "throttled", failed: "failed" } as const;

/** A session named by its digest (server/account/security-log.ts), or all the others. */
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
    const back = (outcome: EndOutcome, count?: number) => {
      noteEndResult(request, outcome, count); // the page's note reads this record, never its address
      return reply.redirect(outcomeAddress(page, outcome, count), 303);
    };
    const { session = "", password = "" } = request.body ?? {};
    if (!sessionChoice.test(session)) return back("unknown");
    if (!password) return back("password-required");

    // The password test call, throttled as the change-password form's test is, in the session's own budget.
    const test = await testPassword(context, request, auth, password);
    if (test.outcome === "ended") return reply.redirect("/", 303);
    if (test.outcome === "throttled") {
      noteEndResult(request, "throttled", test.wait); // the note says the real wait
      return reply.redirect(outcomeAddress(page, "throttled"), 303);
    }
    if (test.outcome !== "right") return back(testOutcomes[test.outcome]);

    const sid = sessionId(request) as string;
    const which = session === "all" ? "all" : { id: session };
    const ended = await endOtherSessions(request, auth, sid, which, "ended-elsewhere");
    if (ended === undefined) return back("unknown");
    return back(ended.onItsWay ? "ending" : "ended", ended.count);
  });

  app.post<{ Body: Body }>(FORGET_DEVICES_PATH, { schema: { body: bodySchema } }, async (request, reply) => {
    const auth = signedIn(request);
    const devices = request.server.account.devices;
    if (!auth) return reply.redirect("/", 303);
    const page = pageOf(auth, request.body?.return);
    const device = request.body?.device ?? "";
    if (!sessionChoice.test(device)) return reply.redirect(page, 303);
    // Only the person's own list is read and written: an id of another person's list is not found in theirs.
    const person = personOf(auth);
    const listed = (await devices.list(person)).devices;
    const forgetting = device === "all" ? listed : listed.filter((entry) => entry.id === device);
    await devices.forget(person, device === "all" ? "all" : { id: device });
    // Forgetting this browser itself is said in its own words ("This browser …").
    const mine = context.devices.deviceOf(request, person);
    const outcome = device !== "all" && mine && deviceDigest(mine) === device ? "forgotten-this" : "forgotten";
    noteEndResult(request, outcome, forgetting.length);
    return reply.redirect(outcomeAddress(page, outcome, forgetting.length), 303);
  });
}
