// A moment as the account sections write it, in the viewer's time zone, and the zones the portal accepts for it.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { formatWhen, knownTimeZone } from "#web/components/when.ts";

describe("a moment", () => {
  const at = Date.UTC(2026, 10, 24, 10, 42);

  it("reads as weekday, day, month and a 24-hour time", () => {
    assert.equal(formatWhen(at, "UTC"), "Tuesday 24 November at 10:42");
    assert.equal(formatWhen(Date.UTC(2026, 0, 5, 0, 5), "UTC"), "Monday 5 January at 00:05");
  });

  it("is written in the viewer's time zone, its day included", () => {
    assert.equal(formatWhen(at, "America/New_York"), "Tuesday 24 November at 05:42");
    assert.equal(formatWhen(Date.UTC(2026, 10, 24, 12, 30), "Pacific/Auckland"), "Wednesday 25 November at 01:30");
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
