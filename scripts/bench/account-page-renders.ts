// Run as a child process with --expose-gc: renders the account page's sections (every time they write) for a person
// with a full session list and activity, each render new, and prints the resident memory after a full collection
// every `step` renders as one JSON line. It stops early once memory has grown past `stopAtBytes`.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { SESSIONS_PER_PERSON } from "#server/account/sessions.ts";
import { ACTIVITY_PER_PERSON } from "#server/stores/memory-bounds.ts";
import { AccountSections, type AccountView } from "#web/components/account-sections.tsx";
import { knownTimeZone } from "#web/components/when.ts";

const [renders = 10_000, step = 500, stopAtBytes = 512 * 2 ** 20] = process.argv.slice(2).map(Number);
const collect = (globalThis as { gc?: () => void }).gc;
if (!collect) throw new Error("run with --expose-gc");
const resident = () => {
  collect();
  collect();
  return process.memoryUsage().rss;
};

/** The zones browsers send, in their own spellings and others. */
const zones = ["Europe/London", "america/new_york", "Asia/Tokyo", "Pacific/Auckland", "UTC", "Mars/Olympus_Mons"];
const start = Date.UTC(2026, 10, 24, 10, 42);

/** The view of the n-th request: another zone, other times, as loadAccountView (server/loaders/account-view.ts) builds it. */
function view(n: number): AccountView {
  const at = start + n * 61_000;
  return {
    timeZone: knownTimeZone(zones[n % zones.length]),
    action: "/session/sign-out-others",
    returnPath: "/client/users/change-password",
    sessions: Array.from({ length: SESSIONS_PER_PERSON }, (_, index) => ({
      id: `session-${index}`,
      device: "Chrome on Windows",
      address: "192.0.2.1",
      began: at - index * 3_600_000,
      seen: at - index * 60_000,
      current: index === 0,
    })),
    sessionsComplete: true,
    trimmed: false,
    forgetAction: "/session/forget-devices",
    devices: [
      { id: "device-0", device: "Chrome on Windows", address: "192.0.2.1", first: at, last: at, current: true },
    ],
    devicesComplete: true,
    activity: Array.from({ length: ACTIVITY_PER_PERSON }, (_, index) => ({
      event: "sign-in",
      at: at - index * 7_200_000,
      device: "Firefox on macOS",
      address: "192.0.2.2",
    })),
    activityComplete: true,
  };
}

const WARM_UP = 100;
const render = (n: number) => renderToStaticMarkup(createElement(AccountSections, { view: view(n) }));
const times = render(0).split(" at ").length - 1;
// Warm-up: the first renders make what every later one reuses.
for (let n = 1; n <= WARM_UP; n++) render(n);
const baseline = resident();
console.log(JSON.stringify({ rendered: 0, rss: baseline, times }));
for (let rendered = 1; rendered <= renders; rendered++) {
  render(WARM_UP + rendered);
  if (rendered % step !== 0) continue;
  const rss = resident();
  console.log(JSON.stringify({ rendered, rss, times }));
  if (rss - baseline > stopAtBytes) break;
}
