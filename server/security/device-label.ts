// A short device label ("Chrome on Windows") from a User-Agent: bowser reads it, and only names from the fixed lists
// below reach the label. A User-Agent is text anyone writes; bowser's generic rule keeps its first product token, so
// "ACME IT says call 0800 555 0100/1.0" would otherwise be shown as a browser on the person's security page.
import Bowser from "bowser";
import { LRUCache } from "lru-cache";

/** A User-Agent longer than this is not parsed: a real one is a few hundred characters. */
const MAX_USER_AGENT = 512;

/** bowser's browser names → the label's; any other browser is an unknown one. */
const browsers: ReadonlyMap<string, string> = new Map([
  ["Chrome", "Chrome"],
  ["Microsoft Edge", "Edge"],
  ["Firefox", "Firefox"],
  ["Safari", "Safari"],
  ["Opera", "Opera"],
  ["Samsung Internet for Android", "Samsung Internet"],
  ["Chromium", "Chromium"],
]);

/** bowser's system names → the label's; any other system is left out of the label. */
const systems: ReadonlyMap<string, string> = new Map([
  ["Windows", "Windows"],
  ["macOS", "macOS"],
  ["iOS", "iOS"],
  ["Android", "Android"],
  ["Linux", "Linux"],
  ["Chrome OS", "ChromeOS"],
]);

export const unknownDevice = "Unknown device";
const unknownBrowser = "Unknown browser";

/** Every label the lists can make. */
const labels: ReadonlySet<string> = new Set([
  unknownDevice,
  ...browsers.values(),
  ...[...browsers.values(), unknownBrowser].flatMap((browser) =>
    [...systems.values(), "iPadOS"].map((system) => `${browser} on ${system}`),
  ),
]);

/** A label read back from a store: itself when the lists make it, else "Unknown device" (one written before them). */
export const storedLabel = (label: string): string => (labels.has(label) ? label : unknownDevice);

/**
 * The labels of the User-Agents seen lately: a request writes several events (ending twenty sessions, twenty), and a
 * browser sends the same User-Agent every time, so bowser reads each once.
 */
const recent = new LRUCache<string, string>({ max: 1_000 });

/** "Firefox on Windows", "Unknown browser on Android", "Firefox" (no known system), or "Unknown device". */
export function deviceLabel(userAgent: string | undefined): string {
  if (!userAgent || userAgent.length > MAX_USER_AGENT) return unknownDevice;
  const known = recent.get(userAgent);
  if (known !== undefined) return known;
  const label = readLabel(userAgent);
  recent.set(userAgent, label);
  return label;
}

function readLabel(userAgent: string): string {
  let parsed: { browser: string; os: string; platform: string };
  try {
    const parser = Bowser.getParser(userAgent);
    parsed = { browser: parser.getBrowserName(), os: parser.getOSName(), platform: parser.getPlatformType() };
  } catch {
    return unknownDevice;
  }
  const browser = browsers.get(parsed.browser);
  // bowser reads an iPad as iOS on a tablet.
  const system = parsed.os === "iOS" && parsed.platform === "tablet" ? "iPadOS" : systems.get(parsed.os);
  if (system) return `${browser ?? unknownBrowser} on ${system}`;
  return browser ?? unknownDevice;
}
