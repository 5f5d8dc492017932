// Row 3's reference: a page visit's upstream call and nothing else. This process sends the visit's `POST /web/track`
// (the body and headers the portal's typed client sends, a token the upstream issued) to the bench's upstream with
// undici's `request` on its global dispatcher, the typed client's own transport, and reads its own CPU. The calls go
// one after another: at row 3b's rate the portal's visits seldom overlap, and calls in flight together would share
// their wake-ups and cost less each. Not on the open-loop schedule: its timer alone costs the sender a good part of a
// call. Prints each round's figures, after a warm-up, as one JSON line.
import { request } from "undici";
import type { Measure } from "#scripts/bench/load.ts";
import { p99 } from "#scripts/bench/stats.ts";

const setting = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};
const url = `${setting("UPSTREAM_URL")}/web/track`;
const headers = { "content-type": "application/json", authorization: `Bearer ${setting("UPSTREAM_TOKEN")}` };
const body = JSON.stringify({ page: setting("TRACK_PAGE") });

/** Visits one after another for `seconds`: their rate, CPU each (user and system, as /proc counts it) and p99. */
async function round(seconds: number): Promise<Measure> {
  const latencies: number[] = [];
  const before = process.cpuUsage();
  const start = performance.now();
  const end = start + seconds * 1000;
  for (let sent = start; sent < end; sent = performance.now()) {
    const answer = await request(url, { method: "POST", headers, body });
    await answer.body.text();
    if (answer.statusCode !== 200) throw new Error(`${url} answered ${answer.statusCode}`);
    latencies.push(performance.now() - sent);
  }
  const { user, system } = process.cpuUsage(before);
  return {
    requestsPerSecond: latencies.length / ((performance.now() - start) / 1000),
    cpuMicrosPerRequest: (user + system) / latencies.length,
    p99Ms: p99(latencies),
  };
}

await round(Number(setting("WARMUP_SECONDS")));
const measures: Measure[] = [];
for (let index = 0; index < Number(setting("ROUNDS")); index++) measures.push(await round(Number(setting("SECONDS"))));
process.stdout.write(`${JSON.stringify(measures)}\n`);
