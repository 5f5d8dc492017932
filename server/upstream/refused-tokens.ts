// Tokens the upstream refused (401) on one of the server's own calls (permissions, tracking): requirements 4.5 ends their
// sessions. The client's middleware records a refusal; the session plugin ends the session that carries the token.
import { LRUCache } from "lru-cache";
import { bounded } from "#server/stores/memory-bounds.ts";

/** Refusals remembered; beyond this the oldest is forgotten (its session has long had its next request). */
export const MAX_REFUSED_TOKENS = 10_000;

/**
 * A refusal lasts as long as a session could carry its token (the absolute lifetime), or until the upstream issues
 * the same token again at a new sign-in.
 */
export class RefusedTokens {
  readonly #tokens: LRUCache<string, true>;

  constructor(lifetimeMs: number) {
    this.#tokens = new LRUCache<string, true>({ ...bounded(MAX_REFUSED_TOKENS), ttl: lifetimeMs });
  }

  add(token: string): void {
    this.#tokens.set(token, true);
  }

  forgive(token: string): void {
    this.#tokens.delete(token);
  }

  has(token: string): boolean {
    return this.#tokens.has(token);
  }
}
