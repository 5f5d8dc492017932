// The device label of a session and of an event in the account's activity: a browser and a system from a fixed list
// of names, never a word the User-Agent chose.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { deviceLabel, storedLabel, unknownDevice } from "#server/security/device-label.ts";

const chromeOnWindows =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const safariOnIPhone =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";

/** Real User-Agents, and the label each gets. */
const known: [string, string][] = [
  [chromeOnWindows, "Chrome on Windows"],
  [safariOnIPhone, "Safari on iOS"],
  [`${chromeOnWindows} Edg/131.0.0.0`, "Edge on Windows"],
  ["Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0", "Firefox on Linux"],
  ["Mozilla/5.0 (Macintosh; Intel Mac OS X 14.1; rv:121.0) Gecko/20100101 Firefox/121.0", "Firefox on macOS"],
  [
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 OPR/105.0.0.0",
    "Opera on macOS",
  ],
  [
    "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/23.0 Chrome/115.0.0.0 Mobile Safari/537.36",
    "Samsung Internet on Android",
  ],
  [
    "Mozilla/5.0 (iPad; CPU OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1",
    "Safari on iPadOS",
  ],
  [
    "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
    "Chrome on ChromeOS",
  ],
  [
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chromium/120.0.0.0 Chrome/120.0.0.0 Safari/537.36",
    "Chromium on Linux",
  ],
];

describe("a session's device label", () => {
  it("names the browser and the system", () => {
    for (const [userAgent, label] of known) assert.equal(deviceLabel(userAgent), label, userAgent);
  });

  it("says Unknown device for no User-Agent, an unrecognised one, or one longer than any real one", () => {
    assert.equal(deviceLabel(undefined), unknownDevice);
    assert.equal(deviceLabel(""), unknownDevice);
    assert.equal(deviceLabel("curl/8.5.0"), unknownDevice);
    assert.equal(deviceLabel(`${chromeOnWindows} ${"x".repeat(600)}`), unknownDevice);
  });

  it("never shows a word the User-Agent chose: a browser not on the list is an Unknown browser", () => {
    assert.equal(deviceLabel("ACME IT says call 0800 555 0100/1.0 (Windows NT 10.0)"), "Unknown browser on Windows");
    assert.equal(deviceLabel("Call 0800 555 0100 Browser/1 (Android 14)"), "Unknown browser on Android");
    assert.equal(deviceLabel("Mozilla/5.0 (<script>alert(1)</script>) Firefox/1.0"), "Firefox");
    assert.equal(deviceLabel("Mozilla/5.0 (Windows NT 10.0) \u0000\u001b[31m Chrome/1 Safari/1"), "Chrome on Windows");
  });

  it("is only ever made of the fixed names", () => {
    const hostile = [
      "ACME IT says call 0800 555 0100/1.0 (Windows NT 10.0)",
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) ACME IT says call 0800 555 0100/1.0",
      `Mozilla/5.0 (${"A".repeat(100)}) Opera/9.80`,
      "Mozilla/5.0 (Linux\r\nSet-Cookie: x=1) Chrome/1",
      "Mozilla/5.0 (PlayStation 4 3.11) AppleWebKit/537.73 (KHTML, like Gecko)",
      "Mozilla/5.0 (compatible; MSIE 10.0; Windows NT 6.2; Trident/6.0)",
    ];
    const browsers = "Chrome|Edge|Firefox|Safari|Opera|Samsung Internet|Chromium|Unknown browser";
    const systems = "Windows|macOS|iOS|iPadOS|Android|Linux|ChromeOS";
    const fixed = new RegExp(
      `^(?:(?:${browsers}) on (?:${systems})|${browsers.replace("|Unknown browser", "")}|${unknownDevice})$`,
    );
    for (const userAgent of hostile) assert.match(deviceLabel(userAgent), fixed, userAgent);
  });
});

describe("a device label read back from a store", () => {
  it("is itself when the fixed names make it, and Unknown device when a User-Agent wrote it before them", () => {
    for (const label of [
      "Chrome on Windows",
      "Unknown browser on Android",
      "Firefox",
      "Safari on iPadOS",
      unknownDevice,
    ])
      assert.equal(storedLabel(label), label);
    assert.equal(storedLabel("ACME IT says call 0800 555 0100 on Windows"), unknownDevice);
    assert.equal(storedLabel(""), unknownDevice);
  });
});
