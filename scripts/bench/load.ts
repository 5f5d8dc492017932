// Side-by-side load: a subject and its reference, alternating rounds, each round's medians kept. As fast as the server
// answers: autocannon, 100 connections. At a fixed rate: requests sent on a fixed schedule (open loop), whatever the
// answers before them did, each one's latency counted from when it was due.
import autocannon from "autocannon";
import { Pool } from "undici";
import { cpuMicros } from "#scripts/bench/processes.ts";

export type Target = {
  label: string;
  url: string;
  /** The process whose CPU time is the cost of one request. */
  pid: number;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /**
   * Run before each round, e.g. to freshen a session cookie; may return headers for the round, or (at a fixed rate)
   * several sets of them, taken by the round's requests in turn: many visitors, not one.
   */
  prepare?: () => Promise<HeaderSet | HeaderSet[] | undefined>;
  /**
   * Awaited after a round's last answer, before its CPU is read: the work its requests left behind (visits still
   * being sent) is the round's, not the next one's.
   */
  settle?: () => Promise<void>;
  /** A fixed rate (requests per second, all connections together) instead of as many as the server answers. */
  rate?: number;
};

type HeaderSet = Record<string, string>;

export type Measure = {
  requestsPerSecond: number;
  cpuMicrosPerRequest: number;
  /** The 99th percentile of the round's latencies, in ms. */
  p99Ms: number;
};
export type Side = Measure & { label: string };

export type LoadOptions = { rounds: number; seconds: number; warmupSeconds: number };

const CONNECTIONS = 100;

async function round(target: Target, seconds: number): Promise<Measure> {
  if (target.rate !== undefined) return fixedRateRound(target, seconds, target.rate);
  const extra = (await target.prepare?.()) ?? {};
  if (Array.isArray(extra)) throw new Error(`${target.label}: several header sets need a fixed rate`);
  const before = cpuMicros(target.pid);
  const result = await autocannon({
    url: target.url,
    connections: CONNECTIONS,
    pipelining: 1,
    duration: seconds,
    method: target.method ?? "GET",
    headers: { ...target.headers, ...extra },
    ...(target.body === undefined ? {} : { body: target.body }),
  });
  await target.settle?.();
  const cpu = cpuMicros(target.pid) - before;
  // A fast failure is not a fast page: every answer of a round must be the one measured.
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0)
    throw new Error(`${target.label}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  return {
    requestsPerSecond: result.requests.average,
    cpuMicrosPerRequest: cpu / result.requests.total,
    p99Ms: result.latency.p99,
  };
}

/**
 * `rate` requests a second for `seconds`, each sent when it is due (not when an earlier one has come back), over up to
 * 100 keep-alive connections. autocannon's `overallRate` cannot do this: each connection sends its quota for a second
 * back to back and then waits, so the load comes in bursts at full speed.
 */
async function fixedRateRound(target: Target, seconds: number, rate: number): Promise<Measure> {
  const extra = (await target.prepare?.()) ?? {};
  const { origin, pathname, search } = new URL(target.url);
  const pool = new Pool(origin, { connections: CONNECTIONS, pipelining: 1 });
  const headerSets = [extra].flat().map((set) => ({ ...target.headers, ...set }));
  const total = Math.round(rate * seconds);
  const latencies: number[] = [];
  const failures: string[] = [];
  const pending: Promise<void>[] = [];
  const send = (due: number, headers: HeaderSet | undefined) =>
    pool
      .request({
        path: `${pathname}${search}`,
        method: target.method ?? "GET",
        headers,
        ...(target.body === undefined ? {} : { body: target.body }),
      })
      .then(async (answer) => {
        await answer.body.dump();
        if (answer.statusCode >= 300) failures.push(String(answer.statusCode));
        else latencies.push(performance.now() - due);
      })
      .catch((error: unknown) => {
        failures.push(String(error));
      });
  const before = cpuMicros(target.pid);
  const start = performance.now();
  let sent = 0;
  while (sent < total) {
    const due = Math.min(total, Math.floor(((performance.now() - start) * rate) / 1000));
    for (; sent < due; sent++) pending.push(send(start + (sent * 1000) / rate, headerSets[sent % headerSets.length]));
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await Promise.all(pending);
  const elapsed = (performance.now() - start) / 1000;
  await target.settle?.();
  const cpu = cpuMicros(target.pid) - before;
  await pool.close();
  if (failures.length > 0) throw new Error(`${target.label}: ${failures.length} failed, e.g. ${failures[0]}`);
  latencies.sort((a, b) => a - b);
  return {
    requestsPerSecond: latencies.length / elapsed,
    cpuMicrosPerRequest: cpu / latencies.length,
    p99Ms: latencies[Math.min(latencies.length - 1, Math.ceil(latencies.length * 0.99) - 1)] ?? 0,
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

/** Warms both up, then alternates subject and reference so a noisy neighbour hits both alike. */
export async function sideBySide(subject: Target, reference: Target, options: LoadOptions): Promise<[Side, Side]> {
  await round(subject, options.warmupSeconds);
  await round(reference, options.warmupSeconds);
  const rounds: [Measure[], Measure[]] = [[], []];
  for (let index = 0; index < options.rounds; index++) {
    rounds[0].push(await round(subject, options.seconds));
    rounds[1].push(await round(reference, options.seconds));
  }
  const summary = (label: string, measures: Measure[]): Side => ({
    label,
    requestsPerSecond: median(measures.map((m) => m.requestsPerSecond)),
    cpuMicrosPerRequest: median(measures.map((m) => m.cpuMicrosPerRequest)),
    p99Ms: median(measures.map((m) => m.p99Ms)),
  });
  return [summary(subject.label, rounds[0]), summary(reference.label, rounds[1])];
}
