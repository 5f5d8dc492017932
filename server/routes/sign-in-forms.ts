// The sign-in path's forms posted as plain HTML (before their island arrives, or without script): each posts to its own
// page and is answered as the island would be, by the same action (server/actions/perform.ts), with the
// same checks (web/sign-in-checks.ts, web/password-rules.ts) and texts; then a 303 to the next page, or to the form's own
// page, whose GET shows the note and what was typed (never a password) once, from the session's flash: Back and Reload
// never send a form again. Nothing secret ever rides in an address.
import type { FastifyInstance, FastifyReply } from "fastify";
import { inject } from "regexparam";
import { perform } from "#server/actions/perform.ts";
import type { Input, Params } from "#server/actions/rules.ts";
import type { Loaded, PageRequest, Screens } from "#server/loaders/screen.ts";
import { turnedAway } from "#server/loaders/section.tsx";
import { requireForm } from "#server/plugins/content-type.ts";
import { safePath } from "#server/security/safe-path.ts";
import { type Auth, standing } from "#server/session/fields.ts";
import { keepFormAnswer, takeFormAnswer } from "#server/session/writes.ts";
import type { OperationId } from "#server/upstream/operations.ts";
import { answerCode, failedCallText } from "#web/api/answer.ts";
import { sessionsEndedNote } from "#web/api/end-others.ts";
import { mfaCodeOf } from "#web/mfa-code.ts";
import { newPasswordProblem } from "#web/password-rules.ts";
import type { FormAnswer, FormNote } from "#web/protocol/form-answer.ts";
import { COOLDOWN_HEADER } from "#web/protocol/headers.ts";
import { asHeld, readVerdict } from "#web/protocol/held.ts";
import { keptTyped } from "#web/protocol/typed-names.ts";
import { resetProblem } from "#web/reset-checks.ts";
import { matchRoute, type RouteMatch, routes } from "#web/routes/table.ts";
import { loginProblem } from "#web/sign-in-checks.ts";
import { landingUrl, linkSite, pathnameOf, type Site } from "#web/site.ts";
import { answerCodes } from "#web/texts/errors.ts";
import { linkLoginTexts } from "#web/texts/link-login.ts";
import { loginTexts } from "#web/texts/login-screen.ts";
import { mfaTexts } from "#web/texts/mfa.ts";
import { passwordTexts } from "#web/texts/password.ts";

/**
 * Every field a form of the sign-in path posts, as text; a repeated or unknown field is refused. What a person types is
 * bounded by the body's size alone: the one input rule says which is too long, in words (web/protocol/typed-names.ts,
 * by the /api call the form makes), where a schema's refusal would be section 8's bare "Action Failed".
 */
const field = (maxLength: number) => ({ type: "string", maxLength }) as const;
const typedText = { type: "string" } as const;
const bodySchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    intent: field(32),
    site: field(16),
    shortName: typedText,
    userName: typedText,
    password: typedText,
    remember: field(16),
    clientShortName: typedText,
    emailAddress: typedText,
    code: typedText,
    username: typedText,
    current: typedText,
    next: typedText,
    confirm: typedText,
    endOthers: field(16),
    uuid: typedText,
    type: field(16),
    replace: field(16),
  },
} as const;
type Body = Partial<Record<keyof (typeof bodySchema)["properties"], string>>;
type FormRequest = PageRequest & { body: Body | undefined };

/** What renders a page again (server/routes/pages.tsx's `load`), with what its form came to. */
type LoadPage = (request: PageRequest, match: RouteMatch | undefined, answer: FormAnswer) => Promise<Loaded>;
/** A form posted to a page: the request, its answer, and the row of the page it was posted to. */
type Form = { request: FormRequest; reply: FastifyReply; match: RouteMatch };

/** The address a form was posted to, as its page's GET: the path and its query, when they are this origin's. */
const ownAddress = (request: PageRequest) => safePath(request.url) ?? pathnameOf(request.url);
const siteOf = (value: string | undefined): Site => (value === "vendor" ? "vendor" : "client");
const error = (text: string): FormNote => ({ kind: "error", text });

export async function signInForms(
  app: FastifyInstance,
  { screens, load }: { screens: Screens; load: LoadPage },
): Promise<void> {
  const { context } = screens;
  /** The action the island would have called, for this request's session. */
  const act = (request: FormRequest, reply: FastifyReply, operationId: OperationId, input: Partial<Input>) =>
    perform(context, request, reply, operationId, { params: {}, query: {}, body: undefined, flags: {}, ...input });

  /**
   * The page the form came from, again, with its answer: a 303 to its own address, whose GET shows the answer kept in
   * the flash. A request that may not write the session has the page answered in place: 400 when refused, 200
   * otherwise.
   */
  const again = async ({ request, reply, match }: Form, answer: FormAnswer, status = 400) => {
    if (keepFormAnswer(request, answer)) return reply.redirect(ownAddress(request), 303);
    takeFormAnswer(request);
    const loaded = await load(request, match, answer);
    if ("redirect" in loaded) return reply.redirect(loaded.redirect, 303);
    return reply.page({ ...loaded, status: loaded.status && loaded.status !== 200 ? loaded.status : status });
  };
  /** The page first asked for, kept in the sign-in page's address (`?return=`). */
  const returnOf = (request: FormRequest) =>
    request.query.return ? safePath(request.query.return) || undefined : undefined;

  /** A form posted to the page of `match`, answered by its screen; a page that takes none is sent to its GET. */
  const answerForm = async (req: PageRequest, reply: FastifyReply, match: RouteMatch) => {
    const request = req as FormRequest; // its query read by the pages' hook (server/routes/pages.tsx)
    const form: Form = { request, reply, match };
    const screen = match.entry.screen;
    const body = request.body ?? {};
    if (screen === "login" || screen === "tax-bridge-login")
      return body.intent === "reset" ? reset(form, body) : login(form, body, screen);
    if (screen === "link-login") return linkLogin(form, body);
    const auth = request.auth; // set exactly when the session has a standing
    if (screen === "mfa") {
      const state = standing(request);
      if (auth && state === "pending") return mfa(form, body, auth);
      if (auth && state === "password-change") return changePassword(form, body, auth, true);
      return reply.redirect("/", 303);
    }
    if (screen === "change-password") {
      // A form its page would not show changes nothing: the page's GET says why (the sign-in, the step, Access Denied).
      const { section } = match.entry;
      if (!auth || section === "public" || turnedAway(request, section))
        return reply.redirect(pathnameOf(request.url), 303);
      return changePassword(form, body, auth, false);
    }
    // A page that takes no form: its GET shows it, as a link to it would.
    return reply.redirect(ownAddress(request), 303);
  };
  const options = { config: { policy: "page" }, schema: { body: bodySchema }, onRequest: requireForm } as const;
  for (const entry of routes)
    app.post(entry.path, options, (request: PageRequest, reply) =>
      answerForm(request, reply, { entry, params: request.params as Params }),
    );
  // Another spelling of a page's address sends the form on to the page's own (308 keeps it a POST, with its body); a
  // path that is no page is not found, whatever its method.
  app.post("/*", { config: { policy: "page" } }, (request, reply) => {
    const matched = matchRoute(pathnameOf(request.url));
    if (!matched) return reply.callNotFound();
    const search = request.url.indexOf("?");
    const params = Object.entries(matched.params).map(([key, value]) => [key, encodeURIComponent(value)]);
    const own = inject(matched.entry.path, Object.fromEntries(params));
    return reply.redirect(`${own}${search < 0 ? "" : request.url.slice(search)}`, 308);
  });

  /** requirements 4.1: the login call; a held token sends the code (there is no device code to try) and opens the step. */
  async function login(form: Form, body: Body, screen: string) {
    const { request, reply } = form;
    const site = siteOf(body.site);
    const { shortName = "", userName = "", password = "" } = body;
    const typed = {
      shortName: keptTyped("shortname", shortName),
      userName: keptTyped("username", userName),
      remember: body.remember === "on",
    };
    const refuse = (text: string) => again(form, { form: "login", site, note: error(text), typed });
    const missing = loginProblem(site, { shortName, userName, password });
    if (missing) return refuse(missing.message);
    // The action trims the names, as it does the island's (web/protocol/typed-names.ts).
    const answer = await act(request, reply, site === "client" ? "loginClient" : "loginVendor", {
      body: { ...(site === "client" ? { shortname: shortName } : {}), username: userName, password },
      flags: { taxBridge: screen === "tax-bridge-login" },
    });
    if (answer.status !== 200) return refuse(failedCallText(answer.status, answer.body));
    const held = (answer.body ?? {}) as { message?: string; tokenHeld?: boolean };
    if (held.message === "Deactivated") return refuse(loginTexts.deactivated(context.config.providerName));
    if (!held.tokenHeld) return refuse(loginTexts.invalidLogin);
    // The island would first try this device's stored code; a page without script has none, so a code is sent now.
    const sent = await act(request, reply, "generateMfaCode", { params: { site } });
    // requirements 4.2: no code could be sent (a fault, or the sends spent): the action ended the sign-in.
    if (sent.status !== 200) return reply.redirect("/", 303);
    const back = returnOf(request);
    return reply.redirect(back ? `/mfa?return=${encodeURIComponent(back)}` : "/mfa", 303);
  }

  /**
   * requirements 2.6: the link's Continue, sent without script, spends it by the island's own call; a session beside
   * it ends only on "Continue with this link" (`replace`), the island's X-Portal-Replace-Session. Refused, the page
   * says why from the flash, at the bare /login the form posts to: the refused link is in no address.
   */
  async function linkLogin(form: Form, body: Body) {
    const { request, reply } = form;
    const uuid = body.uuid ?? "";
    const type = body.type === "Vendor" ? "Vendor" : "Client";
    const site = linkSite(type);
    // Nothing was tried: the link's page says what is missing.
    if (!uuid) return reply.redirect("/login", 303);
    const answer = await act(request, reply, site === "client" ? "linkLoginClient" : "linkLoginVendor", {
      query: { uuid },
      flags: { replaceSession: body.replace === "1" },
    });
    // A session this browser has, which the page did not know of: the link's page names it and waits for the click.
    if (answerCode(answer.body) === answerCodes.sessionExists)
      return reply.redirect(`/login?${new URLSearchParams({ uuid, type }).toString()}`, 303);
    // A 401: the session ended, the sign-in page says so, as the island's call is sent there.
    if (answer.status === 401) return reply.redirect("/", 303);
    // Back to the address the form posted to, the bare /login (web/islands/link-login-island.tsx).
    const refuse = (text: string) => again(form, { form: "link-login", note: error(text) });
    if (answer.status !== 200) return refuse(linkLoginTexts.failed(failedCallText(answer.status, answer.body)));
    if (asHeld(answer.body as object | undefined)?.tokenHeld) return reply.redirect(landingUrl(`/${site}/home`), 303);
    return refuse(linkLoginTexts.invalid);
  }

  /** requirements 4.3: the reset call; its confirmation is a page of its own, the address naming nobody. */
  async function reset(form: Form, body: Body) {
    const { request, reply } = form;
    const site = siteOf(body.site);
    const typed = { shortName: body.clientShortName ?? "", email: body.emailAddress ?? "" };
    const kept = {
      shortName: keptTyped("clientShortName", typed.shortName),
      email: keptTyped("emailAddress", typed.email),
    };
    const refuse = (text: string) => again(form, { form: "reset", site, sent: false, note: error(text), typed: kept });
    const missing = resetProblem(site, typed.shortName, typed.email);
    if (missing) return refuse(missing.message);
    const answer = await act(request, reply, "resetPassword", {
      body: { clientShortName: site === "client" ? typed.shortName : "", emailAddress: typed.email },
    });
    if (answer.status !== 200) return refuse(failedCallText(answer.status, answer.body));
    // The confirmation has an address of its own (a reload sends no second mail), which names no one.
    const query = new URLSearchParams({ site, reset: "sent" });
    const back = returnOf(request);
    if (back) query.set("return", back);
    return reply.redirect(`${pathnameOf(request.url)}?${query.toString()}`, 303);
  }

  /** requirements 4.2: Submit Code, or Send Again (`intent=send-again`). */
  async function mfa(form: Form, body: Body, { site }: Auth) {
    const { request, reply } = form;
    const say = (note: FormNote) => again(form, { form: "mfa", note }, note.kind === "error" ? 400 : 200);
    if (body.intent === "send-again") {
      const sent = await act(request, reply, "generateMfaCode", { params: { site } });
      if (sent.status !== 200) return reply.redirect("/", 303); // the sign-in ended, as above
      const wait = Number(sent.headers?.[COOLDOWN_HEADER]);
      return say({
        kind: wait > 0 ? "info" : "success",
        text: wait > 0 ? mfaTexts.sendAgainWait(wait) : mfaTexts.resent,
      });
    }
    const typed = mfaCodeOf(body.code ?? "");
    if ("problem" in typed) return say(error(typed.problem));
    const answer = await act(request, reply, "validateMfaCode", { params: { site, code: typed.code } });
    const verdict = readVerdict(answer.body);
    // A 401 (a sign-in that ran out of codes too), or the last allowed wrong code: the sign-in page says why.
    if (!request.auth || answer.status === 401) return reply.redirect("/", 303);
    if (answer.status !== 200) return say(error(failedCallText(answer.status, answer.body)));
    if (verdict.passed) {
      if (standing(request) === "password-change") return reply.redirect("/mfa", 303);
      return reply.redirect(landingUrl(returnOf(request)), 303);
    }
    return say(error(mfaTexts.wrongCode(verdict.attemptsLeft)));
  }

  /** requirements 4.4: the local checks in order, the test call, then the change call. */
  async function changePassword(form: Form, body: Body, auth: Auth, forced: boolean) {
    const { request, reply } = form;
    const refuse = (text: string) => again(form, { form: "change-password", notes: [error(text)] });
    const current = body.current ?? "";
    if (!current) return refuse(passwordTexts.currentRequired);
    const problem = newPasswordProblem(body.next ?? "", body.confirm ?? "");
    if (problem) return refuse(problem);
    const audience = auth.site;
    const test = await act(request, reply, "testPassword", {
      params: { audience },
      body: { userId: auth.userName, password: current },
    });
    if (!request.auth || test.status === 401) return reply.redirect("/", 303);
    if (test.status !== 200) return refuse(failedCallText(test.status, test.body));
    const change = await act(request, reply, "changePassword", {
      params: { audience },
      body: { password: body.next ?? "" },
      flags: { endOthers: forced || body.endOthers === "on" },
    });
    if (!request.auth || change.status === 401) return reply.redirect("/", 303);
    if (change.status !== 200) return refuse(failedCallText(change.status, change.body));
    const notes: FormNote[] = [{ kind: "success", text: passwordTexts.changed }];
    const ended = sessionsEndedNote((name) => change.headers?.[name]);
    if (ended) notes.push({ kind: "info", text: ended });
    // The forced change's page moves on to the home page by itself (server/loaders/public.tsx).
    return again(form, { form: "change-password", notes }, 200);
  }
}
