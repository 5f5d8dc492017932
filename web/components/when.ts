// A moment as the account sections write it ("Tuesday 24 November at 10:42"), in the viewer's time zone by Intl.

/** A time zone Intl knows, else UTC: the zone comes from the browser, and a wrong one never breaks the page. */
export function knownTimeZone(zone: string | undefined): string {
  if (!zone || zone.length > 64) return "UTC";
  try {
    return new Intl.DateTimeFormat("en-GB", { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return "UTC";
  }
}

export function formatWhen(at: number, timeZone: string): string {
  return new Intl.DateTimeFormat("en-GB", {
    weekday: "long",
    day: "numeric",
    month: "long",
    hour: "2-digit",
    minute: "2-digit",
    timeZone,
  }).format(at);
}
