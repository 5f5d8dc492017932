// Page-visit records (requirements 4.8) as the sandbox stores them and shows them to tests.
import { z } from "zod";
import type { SandboxDb } from "#sandbox/db.ts";
import { type Site, siteSchema } from "#sandbox/users.ts";

export interface VisitRecord {
  username: string;
  site: Site;
  page: string;
  /** ISO 8601 time of the visit by the sandbox's clock. */
  at: string;
}

const visitRow = z.object({ username: z.string(), site: siteSchema, page: z.string(), at: z.number() });

export function recordVisit(db: SandboxDb, userId: number, page: string, now: number): void {
  db.prepare("INSERT INTO visits (user_id, page, at) VALUES (?, ?, ?)").run(userId, page, now);
}

/** Oldest first, the order the portal sent them in. */
export function listVisits(db: SandboxDb): VisitRecord[] {
  const rows = db
    .prepare(
      `SELECT users.username, users.site, visits.page, visits.at
       FROM visits JOIN users ON users.id = visits.user_id ORDER BY visits.at, visits.id`,
    )
    .all();
  return rows.map((row) => {
    const visit = visitRow.parse(row);
    return { ...visit, at: new Date(visit.at).toISOString() };
  });
}
