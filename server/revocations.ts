// Revocation of stateless cookies: signed-out session ids are refused until their cookie could no longer be valid.

/** The deny-list the session plugin and routes use: `Revocations` keeps it per replica; a shared store, for all. */
export interface RevocationStore {
  /** Refuses this session id until no cookie carrying it could still be valid. */
  revoke(sid: string): void;
  has(sid: string | undefined): boolean;
}

/** Wrong MFA codes per session id, as the MFA answer counts them: `Strikes` per replica; a shared store, for all. */
export interface StrikeCounter {
  /** Counts one more wrong code for this session id; answers how many it has had. */
  add(sid: string): number;
}

export class Revocations implements RevocationStore {
  #until = new Map<string, number>();

  constructor(
    private readonly lifetimeMs: number,
    private readonly now: () => number,
  ) {}

  revoke(sid: string): void {
    const time = this.now();
    if (this.#until.size > 10_000) for (const [id, until] of this.#until) if (until <= time) this.#until.delete(id);
    this.#until.set(sid, time + this.lifetimeMs);
  }

  has(sid: string | undefined): boolean {
    if (!sid) return false;
    const until = this.#until.get(sid);
    return until !== undefined && until > this.now();
  }
}

/** Wrong MFA codes per pending session id, kept here: replaying an older copy of the cookie does not reset them. */
export class Strikes implements StrikeCounter {
  #counts = new Map<string, { count: number; until: number }>();

  constructor(
    private readonly lifetimeMs: number,
    private readonly now: () => number,
  ) {}

  /** Counts one more wrong code for this session id; answers how many it has had. */
  add(sid: string): number {
    const time = this.now();
    if (this.#counts.size > 10_000)
      for (const [id, entry] of this.#counts) if (entry.until <= time) this.#counts.delete(id);
    const entry = this.#counts.get(sid);
    const count = entry && entry.until > time ? entry.count + 1 : 1;
    this.#counts.set(sid, { count, until: entry && entry.until > time ? entry.until : time + this.lifetimeMs });
    return count;
  }
}
