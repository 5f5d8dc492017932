// A moment as the account sections write it, in the viewer's time zone, and the zones the portal accepts for it; the
// formatters behind them are made once per zone and bounded (that memory stays flat over many pages is bench row 7d,
// scripts/bench/formatters.ts).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { formattersHeld, formatWhen, knownTimeZone, ZONES_KEPT } from "#web/components/when.ts";

describe("a moment", () => {
  const at = Date.UTC(2026, 10, 24, 10, 42);

  /** The zone stays on its time's line: a no-break space between them. */
  const nb = (text: string) => text.replace(/ (\S+)$/, "\u00a0$1");

  it("reads as weekday, day, month, year, a 24-hour time and the zone", () => {
    assert.equal(formatWhen(at, "UTC"), nb("Tuesday, 24 November 2026 at 10:42 UTC"));
    assert.equal(formatWhen(Date.UTC(2027, 0, 5, 0, 5), "UTC"), nb("Tuesday, 5 January 2027 at 00:05 UTC"));
  });

  it("is written in the viewer's time zone, its day and year included, and names that zone by its short name", () => {
    assert.equal(formatWhen(at, "America/New_York"), nb("Tuesday, 24 November 2026 at 05:42 EST"));
    assert.equal(
      formatWhen(Date.UTC(2026, 6, 1, 10, 42), "America/Los_Angeles"),
      nb("Wednesday, 1 July 2026 at 03:42 PDT"),
    );
    assert.equal(formatWhen(at, "Europe/London"), nb("Tuesday, 24 November 2026 at 10:42 GMT"));
    assert.equal(formatWhen(Date.UTC(2026, 6, 1, 10, 42), "Europe/London"), nb("Wednesday, 1 July 2026 at 11:42 BST"));
    assert.equal(
      formatWhen(Date.UTC(2026, 11, 31, 12, 30), "Pacific/Auckland"),
      nb("Friday, 1 January 2027 at 01:30 GMT+13"),
      "a zone without a short name in use keeps its offset",
    );
    assert.doesNotMatch(formatWhen(at, "America/Chicago"), /GMT/);
  });
});

describe("the viewer's time zone", () => {
  it("is the zone the browser gave, in Intl's own spelling", () => {
    assert.equal(knownTimeZone("Europe/London"), "Europe/London");
    assert.equal(knownTimeZone("europe/london"), "Europe/London");
  });

  it("is UTC when none was given, or one Intl does not know, or one too long to be a zone", () => {
    assert.equal(knownTimeZone(undefined), "UTC");
    assert.equal(knownTimeZone(""), "UTC");
    assert.equal(knownTimeZone("Mars/Olympus_Mons"), "UTC");
    assert.equal(knownTimeZone(`Europe/${"x".repeat(64)}`), "UTC");
  });
});

describe("the formatters behind the times", () => {
  it("are made once per zone and kept, however many times and spellings are asked, up to a bound", () => {
    const before = formattersHeld();
    for (let minute = 0; minute < 1_000; minute++) formatWhen(minute * 60_000, "Asia/Tokyo");
    assert.equal(knownTimeZone("asia/tokyo"), "Asia/Tokyo");
    assert.ok(formattersHeld() <= before + 2, "one for the zone, one for its other spelling");
    for (let index = 0; index < ZONES_KEPT + 50; index++) knownTimeZone(`Nowhere/Zone_${index}`);
    assert.ok(formattersHeld() <= ZONES_KEPT);
  });
});
