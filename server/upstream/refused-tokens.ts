// Tokens the upstream refused (401) on one of the server's own calls (permissions, tracking): SPEC.md 4.5 ends their
// sessions. The client's middleware records a refusal; the session plugin ends the session that carries the token.
import { LRUCache } from "lru-cache";
import { bounded } from "#server/stores/memory-bounds.ts";

/** Refusals remembered; beyond this the oldest is forgotten (its session has long had its next request). */
export const MAX_REFUSED_TOKENS = 10_000;

export class RefusedTokens {
  readonly #tokens = new LRUCache<string, true>(bounded(MAX_REFUSED_TOKENS));

  add(token: string): void {
    this.#tokens.set(token, true);
  }

  has(token: string): boolean {
    return this.#tokens.has(token);
  }
}
