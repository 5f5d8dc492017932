// A moment as the account sections write it, in the viewer's time zone, and the zones the portal accepts for it; the
// formatters behind them are made once per zone, so rendering pages leaves the process's memory flat.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { describe, it } from "node:test";
import { promisify } from "node:util";
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

  it("leave memory flat: rendering the account page's times 10,000 times levels off, the last 5,000 growing the process by less than 48 MB", async () => {
    // A child process, for a full garbage collection before each reading: ICU's memory lives outside the heap, and
    // a formatter made per call (60 per page) grew it by about 700 MB in the first 1,000 renders. The allocator's
    // arenas settle within the first few thousand renders (about 130 MB on Node 24, less on 22): the bound on the
    // whole run leaves them room, and the last half shows the level.
    const bound = 192 * 2 ** 20;
    const script = new URL("../../support/account-page-renders.ts", import.meta.url).pathname;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--expose-gc", "--import", "tsx", script, "10000", "1000", String(bound)],
      { maxBuffer: 2 ** 20 },
    );
    const readings = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { rendered: number; rss: number; times: number });
    const [first] = readings;
    const half = readings.find((reading) => reading.rendered === 5_000);
    const last = readings.at(-1);
    assert.ok(first && last);
    assert.equal(first.times, 62, "each render writes 62 times: 20 sessions twice, 20 events, a trusted browser twice");
    const grown = last.rss - first.rss;
    assert.ok(grown < bound, `grew by ${Math.round(grown / 2 ** 20)} MB after ${last.rendered} renders`);
    assert.equal(last.rendered, 10_000);
    assert.ok(half);
    const lastHalf = last.rss - half.rss;
    assert.ok(lastHalf < 48 * 2 ** 20, `grew by ${Math.round(lastHalf / 2 ** 20)} MB over the last 5,000 renders`);
  });
});
