// requirements 4.5, "an upstream 401 ends the session", in one place for every call the portal forwards or makes: what
// counts as the upstream refusing a token, the session that ends for it (reason `upstream-refused`, its id revoked),
// and the token forgiven when a new sign-in is issued it again. A forwarded call, a document and the password test
// end their request's session at once; the server's own calls through the typed client have no request in hand, so
// their refusal is recorded here and the session carrying the token ends where it is next seen.
import type { FastifyRequest } from "fastify";
import { LRUCache } from "lru-cache";
import type { Middleware } from "openapi-fetch";
import { expire } from "#server/session/lifecycle.ts";
import { expiring } from "#server/stores/memory-bounds.ts";

/** Refusals remembered; beyond this the oldest is forgotten (its session has long had its next request). */
export const MAX_REFUSED_TOKENS = 10_000;

/**
 * The upstream refused the token a call carried: its 401 status line, whatever its body (requirements 4.5 and 8). An
 * answer the portal makes up for a fault is a 502 or a 504 (server/upstream/read-capped.ts), never this.
 */
export const refusesToken = (status: number): boolean => status === 401;

/** The session token a typed call carried, from its `Authorization` header (server/upstream/client.ts, `bearer`). */
const tokenOf = (headers: Headers) => /^Bearer (.+)$/.exec(headers.get("authorization") ?? "")?.[1];

export class UpstreamRefusals {
  /**
   * Tokens refused on the server's own calls. A refusal lasts as long as a session could carry its token (the
   * absolute lifetime), or until the upstream issues the same token again at a new sign-in.
   */
  readonly #tokens: LRUCache<string, true>;

  constructor(lifetimeMs: number, now: () => number) {
    this.#tokens = new LRUCache<string, true>(expiring(MAX_REFUSED_TOKENS, lifetimeMs, now));
  }

  /** The typed client's middleware: a refused call made with a token marks that token (no session in hand to end). */
  readonly middleware: Middleware = {
    onResponse: ({ request, response }) => {
      if (!refusesToken(response.status)) return;
      const token = tokenOf(request.headers);
      if (token) this.#tokens.set(token, true);
    },
  };

  /** A call made with this request's session token (`operation`) was refused: the session ends now. */
  endSession(request: FastifyRequest, operation: string): void {
    request.log.info({ event: "session-expired", operation }, "upstream refused the token");
    expire(request, "upstream-refused");
  }

  /**
   * A session whose token was refused on one of the server's own calls, in this request or an earlier one, ends now.
   * Answers whether it ended.
   */
  endIfRefused(request: FastifyRequest): boolean {
    const token = request.auth?.token;
    if (token === undefined || !this.#tokens.has(token)) return false;
    expire(request, "upstream-refused");
    return true;
  }

  /** Whether the token was refused: nothing more is sent with it (its page visits). */
  has(token: string): boolean {
    return this.#tokens.has(token);
  }

  /** A new sign-in was issued the token again: the upstream takes it now. */
  forgive(token: string): void {
    this.#tokens.delete(token);
  }
}
