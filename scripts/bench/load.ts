// Side-by-side load: a subject and its reference, alternating rounds, each round's medians kept. As fast as the server
// answers: autocannon, 100 connections.
import autocannon from "autocannon";
import { cpuMicros } from "#scripts/bench/processes.ts";
import { median } from "#scripts/bench/stats.ts";

export type Target = {
  label: string;
  url: string;
  /** The process whose CPU time is the cost of one request. */
  pid: number;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /**
   * Run before each round, e.g. to freshen a session cookie; may return headers for the round, or several sets of
   * them: many visitors, not one, each connection keeping one.
   */
  prepare?: () => Promise<HeaderSet | HeaderSet[] | undefined>;
  /**
   * Awaited after a round's last answer, before its CPU is read: the work its requests left behind (visits still
   * being sent) is the round's, not the next one's.
   */
  settle?: () => Promise<void>;
};

type HeaderSet = Record<string, string>;

export type Measure = {
  requestsPerSecond: number;
  cpuMicrosPerRequest: number;
};
export type Side = Measure & { label: string };

export type LoadOptions = { rounds: number; seconds: number; warmupSeconds: number };

const CONNECTIONS = 100;

/** The round's header sets: the target's own headers with each set `prepare` returned (one set, or none, for most). */
async function headerSetsOf(target: Target): Promise<HeaderSet[]> {
  const extra = (await target.prepare?.()) ?? {};
  return [extra].flat().map((set) => ({ ...target.headers, ...set }));
}

async function round(target: Target, seconds: number): Promise<Measure> {
  const headerSets = await headerSetsOf(target);
  // Each connection keeps one set for the round, taken in turn: with as many sets as connections, a visitor each.
  let taken = 0;
  const before = cpuMicros(target.pid);
  const result = await autocannon({
    url: target.url,
    connections: CONNECTIONS,
    pipelining: 1,
    duration: seconds,
    method: target.method ?? "GET",
    headers: headerSets[0],
    ...(headerSets.length > 1
      ? { setupClient: (client) => client.setHeaders(headerSets[taken++ % headerSets.length]) }
      : {}),
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
  };
}

/** A side's figures over its rounds: each figure's median. */
const sideOf = (label: string, measures: Measure[]): Side => ({
  label,
  requestsPerSecond: median(measures.map((m) => m.requestsPerSecond)),
  cpuMicrosPerRequest: median(measures.map((m) => m.cpuMicrosPerRequest)),
});

/** Warms both up, then alternates subject and reference so a noisy neighbour hits both alike. */
export async function sideBySide(subject: Target, reference: Target, options: LoadOptions): Promise<[Side, Side]> {
  await round(subject, options.warmupSeconds);
  await round(reference, options.warmupSeconds);
  const rounds: [Measure[], Measure[]] = [[], []];
  for (let index = 0; index < options.rounds; index++) {
    rounds[0].push(await round(subject, options.seconds));
    rounds[1].push(await round(reference, options.seconds));
  }
  return [sideOf(subject.label, rounds[0]), sideOf(reference.label, rounds[1])];
}
