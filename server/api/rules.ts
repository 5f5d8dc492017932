// The one table of /api's rules: a row per operation of openapi/portal.yaml (the type makes a missing or renamed
// operation a compile error), saying who may call it, how it is throttled, what is checked before it leaves, and
// what its answer does to the session.
import type { FastifyRequest } from "fastify";
import { sessionPerson } from "#server/account/person.ts";
import type { Counts } from "#server/api/attempt.ts";
import {
  type Check,
  checkNewPassword,
  confirmReplace,
  inOrder,
  oneValidateAtATime,
  skipRecentGenerate,
} from "#server/api/checks.ts";
import {
  changedPassword,
  codeSent,
  type Effect,
  holdLogin,
  promoteOnPassed,
  signInByLink,
  signInRefused,
} from "#server/api/effects.ts";
import { answerUntrustedSilentCheck } from "#server/api/mfa-device.ts";
import type { OwnCall } from "#server/api/own-call.ts";
import { answerPasswordTest } from "#server/api/password-test.ts";
import type { AppContext } from "#server/context.ts";
import type { ThrottleGroup, Whose } from "#server/security/throttle.ts";
import { expire } from "#server/session/lifecycle.ts";
import type { OperationId } from "#server/upstream/operations.ts";
import { personKey } from "#web/protocol/person-key.ts";

/** Who may call an operation: anyone, a session waiting for its MFA code, or a signed-in session. */
export type Needs = "anyone" | "pending" | "signed-in";

export type Throttled = {
  group: ThrottleGroup;
  /** The person an attempt counts against, beside the address. */
  person?: (request: FastifyRequest) => string | undefined;
  /**
   * Whether that person is named by the request (anyone may name anyone), is the signed-in session's own, or the
   * pending sign-in's: which budgets the call spends (server/security/throttle.ts).
   */
  whose?: Whose;
  /** Failures only, or every call (what sends an e-mail). */
  counts: Counts;
};

/** Forwarded by the proxy: the row says how often, what else is checked, and what the answer does. */
export type ProxiedRule = {
  forwarded: true;
  needs: Needs;
  throttle?: Throttled;
  /** Checked after the schema and before the upstream is called. */
  check?: Check;
  /** What the answer does to the session. */
  effect?: Effect;
  /** What a failed answer (or an upstream fault) does to the session. */
  onFailure?: (request: FastifyRequest) => void;
  /** What a 4xx answer (the upstream refused the call) records: a refused sign-in is a failed sign-in. */
  onRefusal?: (input: { context: AppContext; request: FastifyRequest }) => void;
  /** The call carries the browser's device id (server/api/mfa-device.ts): a passed code is remembered for it only. */
  sendsDevice?: true;
};

/**
 * Reachable under /api like a forwarded operation, but answered by the portal's own call: the function that makes it
 * is shared with another route, and owns the throttle, the call and what the answer means.
 */
export type OwnCallRule = { forwarded: true; needs: Needs; answeredBy: OwnCall };

export type Rule = { forwarded: false; calledBy: string } | ProxiedRule | OwnCallRule;

const form = (request: FastifyRequest) => (request.body ?? {}) as Record<string, string | undefined>;

/** Typed by the description's operations: one missing here is the one error `tsc` gives, naming this file. */
export const rules: Record<OperationId, Rule> = {
  loginClient: {
    forwarded: true,
    needs: "anyone",
    throttle: {
      group: "sign-in",
      counts: "failures",
      person: (request) => personKey("client", form(request).shortname, form(request).username),
    },
    effect: holdLogin("client"),
    onRefusal: signInRefused("client"),
  },
  loginVendor: {
    forwarded: true,
    needs: "anyone",
    throttle: {
      group: "sign-in",
      counts: "failures",
      person: (request) => personKey("vendor", "", form(request).username),
    },
    effect: holdLogin("vendor"),
    onRefusal: signInRefused("vendor"),
  },
  linkLoginClient: {
    forwarded: true,
    needs: "anyone",
    throttle: { group: "sign-in", counts: "failures" },
    check: confirmReplace,
    effect: signInByLink("client"),
  },
  linkLoginVendor: {
    forwarded: true,
    needs: "anyone",
    throttle: { group: "sign-in", counts: "failures" },
    check: confirmReplace,
    effect: signInByLink("vendor"),
  },
  resetPassword: {
    forwarded: true,
    needs: "anyone",
    throttle: {
      group: "reset",
      counts: "every",
      person: (request) => personKey("", form(request).clientShortName, form(request).emailAddress),
    },
  },
  generateMfaCode: {
    forwarded: true,
    needs: "pending",
    throttle: { group: "mfa", counts: "every", person: sessionPerson, whose: "pending" },
    check: skipRecentGenerate,
    effect: codeSent,
    // requirements 4.2: when a code cannot be generated, the token is cleared (the island shows the expiry message).
    onFailure: (request) => expire(request, "code-not-sent"),
  },
  validateMfaCode: {
    forwarded: true,
    needs: "pending",
    throttle: { group: "mfa", counts: "failures", person: sessionPerson, whose: "pending" },
    // A silent check from a browser the person does not trust is answered "Failed" before the lock, uncounted.
    check: inOrder(answerUntrustedSilentCheck, oneValidateAtATime),
    effect: promoteOnPassed,
    // requirements 4.2: the device memory is the browser's, so the upstream is told which browser this is.
    sendsDevice: true,
  },
  // Its throttle, its call and what its answer means are server/api/password-test.ts's, shared with ending other
  // sessions (server/routes/account.ts).
  testPassword: { forwarded: true, needs: "signed-in", answeredBy: answerPasswordTest },
  // Every call counts: each one that passes its cheap checks costs a strength estimate (server/api/checks.ts).
  changePassword: {
    forwarded: true,
    needs: "signed-in",
    throttle: { group: "password-change", counts: "every", person: sessionPerson, whose: "session" },
    check: checkNewPassword,
    effect: changedPassword,
  },
  trackPage: { forwarded: false, calledBy: "server/tracking.ts" },
  getUserInfo: { forwarded: false, calledBy: "server/permissions.ts" },
  getPdf: { forwarded: false, calledBy: "server/routes/documents.ts" },
  headPdf: { forwarded: false, calledBy: "server/routes/health.ts" },
};
