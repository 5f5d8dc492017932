// Revocation of stateless cookies: signed-out session ids are refused until their cookie could no longer be valid.
export class Revocations {
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
