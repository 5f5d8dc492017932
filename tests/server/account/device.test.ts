// The device label of a session in the account's list: short, readable, and safe whatever the User-Agent says.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { deviceLabel, unknownDevice } from "#server/account/device.ts";

const chromeOnWindows =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const safariOnIPhone =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";

describe("a session's device label", () => {
  it("names the browser and the system", () => {
    assert.equal(deviceLabel(chromeOnWindows), "Chrome on Windows");
    assert.equal(deviceLabel(safariOnIPhone), "Safari on iOS");
  });

  it("says Unknown device for no User-Agent, an unrecognised one, or one longer than any real one", () => {
    assert.equal(deviceLabel(undefined), unknownDevice);
    assert.equal(deviceLabel(""), unknownDevice);
    assert.equal(deviceLabel("curl/8.5.0"), unknownDevice);
    assert.equal(deviceLabel(`${chromeOnWindows} ${"x".repeat(600)}`), unknownDevice);
  });

  it("keeps only letters, digits, spaces and a few marks, each part at most 32 characters", () => {
    const hostile = [
      "Mozilla/5.0 (<script>alert(1)</script>) Firefox/1.0",
      "Mozilla/5.0 (Windows NT 10.0) \u0000\u001b[31m Chrome/1 Safari/1",
      `Mozilla/5.0 (${"A".repeat(100)}) Opera/9.80`,
      "Mozilla/5.0 (Linux\r\nSet-Cookie: x=1) Chrome/1",
    ];
    for (const userAgent of hostile) {
      const label = deviceLabel(userAgent);
      assert.match(label, /^[\p{L}\p{N} ._()+-]+$/u, JSON.stringify(label));
      for (const part of label.split(" on ")) assert.ok(part.length <= 32, label);
    }
  });
});
