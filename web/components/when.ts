// A moment as the account pages write it ("Tuesday, 24 November 2026 at 10:42 GMT+9"), in the viewer's time zone by
// Intl: the year and the zone too, since the activity goes back months and a session may sit in another zone.
import { LRUCache } from "lru-cache";

/**
 * Formatters kept per zone: each `Intl.DateTimeFormat` holds ICU memory outside the JavaScript heap, which a garbage
 * collection gives back late or never, so one built per call grows a process by gigabytes under load. About 600
 * zones exist; the bound keeps a flood of odd spellings from holding more.
 */
export const ZONES_KEPT = 1_000;

const formatters = new LRUCache<string, Intl.DateTimeFormat>({ max: ZONES_KEPT });
/** A zone as sent (any spelling) → Intl's own spelling, or "UTC" for one it does not know. */
const known = new LRUCache<string, string>({ max: ZONES_KEPT });

/** A time zone Intl knows, else UTC: the zone comes from the browser, and a wrong one never breaks the page. */
export function knownTimeZone(zone: string | undefined): string {
  if (!zone || zone.length > 64) return "UTC";
  const kept = known.get(zone);
  if (kept !== undefined) return kept;
  const resolved = resolveZone(zone);
  known.set(zone, resolved);
  return resolved;
}

export function formatWhen(at: number, timeZone: string): string {
  return formatterFor(timeZone).format(at);
}

/** How many formatters this process holds (for its test: it never passes `ZONES_KEPT`). */
export const formattersHeld = (): number => formatters.size;

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  const kept = formatters.get(timeZone);
  if (kept) return kept;
  const made = new Intl.DateTimeFormat("en-GB", {
    weekday: "long",
    day: "numeric",
    month: "long",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZoneName: "short",
    timeZone,
  });
  formatters.set(timeZone, made);
  return made;
}

function resolveZone(zone: string): string {
  try {
    // Resolving a zone needs a formatter: the one formatWhen will use for it, kept.
    return formatterFor(zone).resolvedOptions().timeZone;
  } catch {
    return "UTC";
  }
}
