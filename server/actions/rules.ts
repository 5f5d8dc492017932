// The one table of /api's rules: a row per operation of openapi/portal.yaml (the type makes a missing or renamed
// operation a compile error), saying who may call it, how it is throttled, what is checked before it leaves, and
// what its answer does to the session.
import type { FastifyReply, FastifyRequest } from "fastify";
import type { operations } from "#openapi/schema.ts";
import { sessionPerson } from "#server/account/person.ts";
import type { Attempt, AttemptOf } from "#server/actions/attempt.ts";
import {
  type Check,
  checkNewPassword,
  confirmReplace,
  inOrder,
  oneValidateAtATime,
  skipRecentGenerate,
} from "#server/actions/checks.ts";
import {
  changedPassword,
  codeSent,
  holdLogin,
  promoteOnPassed,
  signInByLink,
  signInRefused,
} from "#server/actions/effects.ts";
import { answerPasswordTest } from "#server/actions/password-test.ts";
import type { AppContext } from "#server/context.ts";
import { answerUntrustedSilentCheck } from "#server/security/device-cookie.ts";
import { expire } from "#server/session/lifecycle.ts";
import type { Operation, OperationId } from "#server/upstream/operations.ts";
import { personKey } from "#web/protocol/person-key.ts";
import type { Site } from "#web/site.ts";

export type Params = Record<string, string>;

/** What the person asked for beside the operation's fields: an island says it by a header, a form by a field. */
export type Flags = {
  /** The sign-in was made at /tax-bridge/login: it, and only it, is in tax-bridge mode. */
  taxBridge?: boolean;
  /** A sign-in link may replace this browser's session: the person clicked to. */
  replaceSession?: boolean;
  /** A changed password ends the person's other sessions. */
  endOthers?: boolean;
  /** The MFA step's silent check of its stored code, not a code the person typed. */
  silentCheck?: boolean;
};

/** An operation's input: its path and query parameters and its body as the description declares them, and the flags. */
export type Input = { params: Params; query: Params; body: Record<string, unknown> | undefined; flags: Flags };

/** What the browser gets: the status, the portal's own body, and its headers. */
export type Answer = { status: number; body: unknown; headers?: Record<string, string> };

/** A call on its way: what it was asked with, what it carries upstream, and what it holds until it is answered. */
export type Call = {
  operation: Operation;
  input: Input;
  token: string | undefined;
  /** The session's id when the call left: an answer that began another session changed it. */
  sid: string | undefined;
  /** The throttled attempt this call took, settled by what the call came to (server/actions/attempt.ts). */
  attempt: Attempt | undefined;
  /** The device id the call carries upstream, when its row sends one (server/security/device-cookie.ts). */
  device?: string | undefined;
  /** Whether that id was of a browser the person trusts: a pass then skipped typing a code. */
  trusted?: boolean | undefined;
  /** Work done once the answer is made, whatever it is (a lock a check took, let go). */
  release?: () => Promise<void>;
};

/** An operation's success answer as the description declares it (undefined when it declares none). */
export type SuccessOf<O extends OperationId> = operations[O]["responses"] extends {
  200: { content: { "application/json": infer T } };
}
  ? T
  : undefined;

/** The browser's answer: its status (200 when not given), its body, and whether the attempt failed. */
export type Shaped = { status?: number; body: unknown; failed?: boolean; headers?: Record<string, string> };

/** A call on its way, as a row's check, effect and refusal are given it. */
export type OnCall = { context: AppContext; request: FastifyRequest; call: Call };

/** What a success answer does to the session, read as its operation declares it (undefined: it was empty). */
export type Effect<O extends OperationId = OperationId> = (
  input: OnCall & { reply: FastifyReply; data: SuccessOf<O> | undefined },
) => Promise<Shaped>;

/** An operation the portal answers by its own calls, the function another route shares. */
export type OwnCall = (input: { context: AppContext; request: FastifyRequest; input: Input }) => Promise<Answer>;

/** Who may call an operation: anyone, a session waiting for its MFA code, or a signed-in session. */
export type Needs = "anyone" | "pending" | "signed-in";

/** A row's throttle: its attempts' budgets and what counts (server/actions/attempt.ts), the person read from the call. */
export type Throttled = Omit<AttemptOf, "person"> & {
  /** The person an attempt counts against, beside the address. */
  person?: (call: Call, request: FastifyRequest) => string | undefined;
};

/** Called by the portal for the person: the row says how often, what else is checked, and what the answer does. */
export type ActionRule<O extends OperationId = OperationId> = {
  islands: true;
  needs: Needs;
  throttle?: Throttled;
  /** Checked after the schema and before the upstream is called. */
  check?: Check;
  /** What the answer does to the session. */
  effect?: Effect<O>;
  /** What a failed call (a failed answer, an upstream fault, or the throttle's refusal) does to the session. */
  onFailure?: (request: FastifyRequest) => void;
  /** What a 4xx answer (the upstream refused the call) records: a refused sign-in is a failed sign-in. */
  onRefusal?: (input: OnCall) => void;
  /** The call carries the browser's device id (server/security/device-cookie.ts): a passed code is remembered for it only. */
  sendsDevice?: true;
};

/**
 * Reachable under /api like the others, but answered by the portal's own call: the function that makes it is shared
 * with another route, and owns the throttle, the call and what the answer means.
 */
export type OwnCallRule = { islands: true; needs: Needs; answeredBy: OwnCall };

export type Rule<O extends OperationId = OperationId> =
  | { islands: false; calledBy: string }
  | ActionRule<O>
  | OwnCallRule;

const form = (call: Call) => (call.input.body ?? {}) as Record<string, string | undefined>;
/** The session's own person: who a pending or signed-in session's attempts count against. */
const ownPerson = (_call: Call, request: FastifyRequest) => sessionPerson(request);

/** A site's sign-in: counted against the person its form names; a refusal is a failed sign-in. */
const signIn = (site: Site): ActionRule<"loginClient" | "loginVendor"> => ({
  islands: true,
  needs: "anyone",
  throttle: {
    group: "sign-in",
    counts: "failures",
    person: (call) => personKey(site, site === "client" ? form(call).shortname : "", form(call).username),
  },
  effect: holdLogin(site),
  onRefusal: signInRefused(site),
});
/** A site's sign-in by link: it names no person before it is answered. */
const linkSignIn = (site: Site): ActionRule<"linkLoginClient" | "linkLoginVendor"> => ({
  islands: true,
  needs: "anyone",
  throttle: { group: "sign-in", counts: "failures" },
  check: confirmReplace,
  effect: signInByLink(site),
});

/** Typed by the description's operations: one missing here is the one error `tsc` gives, naming this file. */
export const rules: { [O in OperationId]: Rule<O> } = {
  loginClient: signIn("client"),
  loginVendor: signIn("vendor"),
  linkLoginClient: linkSignIn("client"),
  linkLoginVendor: linkSignIn("vendor"),
  resetPassword: {
    islands: true,
    needs: "anyone",
    throttle: {
      group: "reset",
      counts: "every",
      person: (call) => personKey("", form(call).clientShortName, form(call).emailAddress),
    },
  },
  generateMfaCode: {
    islands: true,
    needs: "pending",
    throttle: { group: "mfa", counts: "every", person: ownPerson, whose: "pending" },
    check: skipRecentGenerate,
    effect: codeSent,
    // requirements 4.2: when a code cannot be generated, the token is cleared (the island shows the expiry message).
    onFailure: (request) => expire(request, "code-not-sent"),
  },
  validateMfaCode: {
    islands: true,
    needs: "pending",
    throttle: { group: "mfa", counts: "failures", person: ownPerson, whose: "pending" },
    // A silent check from a browser the person does not trust is answered "Failed" before the lock, uncounted.
    check: inOrder(answerUntrustedSilentCheck, oneValidateAtATime),
    effect: promoteOnPassed,
    // requirements 4.2: the device memory is the browser's, so the upstream is told which browser this is.
    sendsDevice: true,
  },
  // Its throttle, its call and what its answer means are server/actions/password-test.ts's, shared with ending other
  // sessions (server/routes/account.ts).
  testPassword: { islands: true, needs: "signed-in", answeredBy: answerPasswordTest },
  // Every call counts: each one that passes its cheap checks costs a strength estimate (server/actions/checks.ts).
  changePassword: {
    islands: true,
    needs: "signed-in",
    throttle: { group: "password-change", counts: "every", person: ownPerson, whose: "session" },
    check: checkNewPassword,
    effect: changedPassword,
  },
  trackPage: { islands: false, calledBy: "server/upstream/tracking.ts" },
  getUserInfo: { islands: false, calledBy: "server/account/permissions.ts" },
  getPdf: { islands: false, calledBy: "server/routes/documents.ts" },
  headPdf: { islands: false, calledBy: "server/routes/health.ts" },
};
