// When a signed-in page warns of the idle limit, and where it asks whether its session has ended.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { IDLE_CHECK_MARGIN_SECONDS, IDLE_WARNING_SECONDS, idleCheckUrl } from "#web/idle-timing.ts";
import { layoutTexts } from "#web/texts/layout.ts";

describe("the idle timing", () => {
  it("warns a minute before the limit, as the warning says, and asks only once the limit has passed", () => {
    assert.match(layoutTexts.idleWarning, /in one minute/);
    assert.equal(IDLE_WARNING_SECONDS, 60);
    assert.ok(IDLE_CHECK_MARGIN_SECONDS > 0);
    assert.ok(IDLE_CHECK_MARGIN_SECONDS < IDLE_WARNING_SECONDS);
  });

  it("asks at /session/idle with the page to come back to as one query value", () => {
    assert.equal(idleCheckUrl("/client/home"), "/session/idle?return=%2Fclient%2Fhome");
    const url = new URL(idleCheckUrl("/client/reports/invoice?from=2026-01-01&to=x#top"), "http://localhost");
    assert.equal(url.pathname, "/session/idle");
    assert.deepEqual([...url.searchParams], [["return", "/client/reports/invoice?from=2026-01-01&to=x#top"]]);
    assert.equal(url.hash, "");
  });

  it("keeps a path's ; and spaces out of the refresh header it is written into", () => {
    assert.doesNotMatch(idleCheckUrl("/client/a;url=/evil b"), /[; ]/);
  });
});
