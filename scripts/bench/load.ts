// Side-by-side load: a subject and its reference, alternating rounds of autocannon, each round's medians kept.
import autocannon from "autocannon";
import { cpuMicros } from "#scripts/bench/processes.ts";

export type Target = {
  label: string;
  url: string;
  /** The process whose CPU time is the cost of one request. */
  pid: number;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /** Run before each round, e.g. to freshen a session cookie; may return headers for the round. */
  prepare?: () => Promise<Record<string, string> | undefined>;
};

export type Measure = { requestsPerSecond: number; cpuMicrosPerRequest: number };
export type Side = Measure & { label: string };

export type LoadOptions = { rounds: number; seconds: number; warmupSeconds: number };

async function round(target: Target, seconds: number): Promise<Measure> {
  const extra = (await target.prepare?.()) ?? {};
  const before = cpuMicros(target.pid);
  const result = await autocannon({
    url: target.url,
    connections: 100,
    pipelining: 1,
    duration: seconds,
    method: target.method ?? "GET",
    headers: { ...target.headers, ...extra },
    ...(target.body === undefined ? {} : { body: target.body }),
  });
  const cpu = cpuMicros(target.pid) - before;
  // A fast failure is not a fast page: every answer of a round must be the one measured.
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0)
    throw new Error(`${target.label}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  return { requestsPerSecond: result.requests.average, cpuMicrosPerRequest: cpu / result.requests.total };
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
  });
  return [summary(subject.label, rounds[0]), summary(reference.label, rounds[1])];
}
