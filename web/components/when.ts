// A moment as the account pages write it ("Tuesday, 24 November 2026 at 05:42 EST"), in the viewer's time zone by
// Intl: the year and the zone too, since the activity goes back months and a session may sit in another zone. The zone
// is its short name where one is in use ("EST", "BST"), else its offset ("GMT+9"), kept on the time's line.
import { LRUCache } from "lru-cache";

/**
 * Formatters kept per zone: each `Intl.DateTimeFormat` holds ICU memory outside the JavaScript heap, which a garbage
 * collection gives back late or never, so one built per call grows a process by gigabytes under load. About 600
 * zones exist; the bound keeps a flood of odd spellings from holding more.
 */
export const ZONES_KEPT = 1_000;

/** A zone's two formatters: the day and time in British English, and its name as American English spells it. */
type Formatters = { when: Intl.DateTimeFormat; name: Intl.DateTimeFormat };
const formatters = new LRUCache<string, Formatters>({ max: ZONES_KEPT });
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

/** en-GB names only the British zones ("BST"); en-US names the American ones ("EST") and gives others as offsets. */
const offsetOnly = /^(GMT|UTC)[+-]/;

export function formatWhen(at: number, timeZone: string): string {
  const { when, name } = formatterFor(timeZone);
  return when
    .formatToParts(at)
    .map(({ type, value }, index, parts) => {
      if (type !== "timeZoneName") return parts[index + 1]?.type === "timeZoneName" ? "\u00a0" : value;
      if (!offsetOnly.test(value)) return value;
      const named = name.formatToParts(at).find((part) => part.type === "timeZoneName")?.value;
      return named && !offsetOnly.test(named) ? named : value;
    })
    .join("");
}

/** How many formatters this process holds (for its test: it never passes `ZONES_KEPT`). */
export const formattersHeld = (): number => formatters.size;

function formatterFor(timeZone: string): Formatters {
  const kept = formatters.get(timeZone);
  if (kept) return kept;
  const when = new Intl.DateTimeFormat("en-GB", {
    weekday: "long",
    day: "numeric",
    month: "long",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZoneName: "short",
    timeZone,
  });
  const made = { when, name: new Intl.DateTimeFormat("en-US", { timeZoneName: "short", timeZone }) };
  formatters.set(timeZone, made);
  return made;
}

function resolveZone(zone: string): string {
  try {
    // Resolving a zone needs a formatter: the one formatWhen will use for it, kept.
    return formatterFor(zone).when.resolvedOptions().timeZone;
  } catch {
    return "UTC";
  }
}
