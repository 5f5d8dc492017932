// Benchmark 7: the portal's resident memory under a long mixed load, beside its memory after start-up, read every second.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import autocannon from "autocannon";
import { WebSocket } from "undici";
import { PortalClient } from "#harness/portal-client.ts";
import { accounts, fakeUpstreamCode, signIn } from "#harness/sign-in.ts";
import { containerNodeOptions } from "#scripts/bench/heap.ts";
import { startPortalOnUpstream } from "#scripts/bench/portal.ts";
import { freePort, residentBytes } from "#scripts/bench/processes.ts";
import type { Row } from "#scripts/bench/report.ts";
import { SESSIONS_PER_PERSON } from "#server/account/sessions.ts";
import { TIME_ZONE_HEADER } from "#web/protocol/headers.ts";

export type MemoryOptions = {
  /** How long the mixed load runs; the baseline is taken before it, after the warm-up. */
  seconds: number;
  warmupSeconds: number;
  /** How often resident memory is reported during the load (it is read every second, kept in artifacts/bench/). */
  sampleSeconds: number;
  /** Said in the rows when the run is shorter than the benchmark's 10 minutes. */
  quick: boolean;
};

const CONNECTIONS = 50;
/** After a load stops, the time left for in-flight work and the tracking queue to settle before memory is read. */
const SETTLE_MS = 3_000;
/** Retained memory growing this much over the second half is a leak, not the heap finding its size. */
const MAX_SECOND_HALF_GROWTH = 1.1;
const MAX_GROWTH = 1.5;
/** What a replica may hold resident under the load: deploy/k8s limits a pod to 512 Mi. */
const MAX_RESIDENT_BYTES = 300 * 2 ** 20;
/** The account page's address, with a count that differs between requests (see `signedInKinds`). */
const ACCOUNT_PAGE = "/client/users/change-password";
/** The zones the person's sessions were begun in: each writes its times in its own. */
const ZONES = ["Europe/London", "America/New_York", "Asia/Tokyo", "Pacific/Auckland", "Europe/Berlin"];

type Manifest = { css: string; hydrate: string; images: Record<string, string> };

/** One kind of request of the mixed load and the one status it must get. */
type Kind = {
  name: string;
  method: "GET" | "POST";
  path: string;
  expect: number;
  signedIn?: boolean;
  headers?: Record<string, string>;
  body?: string;
  /** A path of its own for each request (autocannon's `[<id>]` gives only letters). */
  nextPath?: () => string;
};

const MANIFEST = new URL("../../dist/manifest.json", import.meta.url);
/** The built assets the portal serves; read at start, like the portal reads them. */
const readManifest = () => readFileSync(MANIFEST, "utf8");

function kinds(manifestText: string): Kind[] {
  const manifest = JSON.parse(manifestText) as Manifest;
  const splash = manifest.images["splash-low.jpg"];
  if (!splash) throw new Error("dist/manifest.json has no splash-low.jpg: run `npm run build`");
  const compressed = { "accept-encoding": "br, gzip" };
  return [
    // The session's last page is /client/home (see `refresh` below): a repeat view, not tracked; the others are visits.
    // The home page writes the last sign-in's time.
    { name: "section page, repeat view", method: "GET", path: "/client/home", expect: 200, signedIn: true },
    // The person's 20 sessions and their activity, each time written in the session's zone. A page is kept once
    // rendered (server/render/page-reply.ts): the note's count, cycling past the pages kept, makes each answer a
    // new render, as the many people of a real load would.
    {
      name: "account page, full session list and activity",
      method: "GET",
      path: ACCOUNT_PAGE,
      expect: 200,
      signedIn: true,
      nextPath: cycling(),
    },
    { name: "gated section page, tracked", method: "GET", path: "/client/invoice/entry", expect: 200, signedIn: true },
    { name: "section page, tracked", method: "GET", path: "/client/reports/aging", expect: 200, signedIn: true },
    { name: "login page", method: "GET", path: "/", expect: 200 },
    { name: "stylesheet", method: "GET", path: manifest.css, expect: 200, headers: compressed },
    { name: "hydration script", method: "GET", path: manifest.hydrate, expect: 200, headers: compressed },
    { name: "splash image", method: "GET", path: splash, expect: 200 },
    {
      name: "proxied /api call",
      method: "POST",
      path: "/api/web/client/password/test",
      expect: 200,
      signedIn: true,
      headers: { "content-type": "application/json", "x-portal-request": "1" },
      body: JSON.stringify({ userId: "alice", password: "x" }),
    },
    // Unknown paths, each request a new one ([<id>] is autocannon's unique id): anything kept per path would grow.
    { name: "unknown section page", method: "GET", path: "/client/no-such-page-[<id>]", expect: 404, signedIn: true },
    { name: "unknown public path", method: "GET", path: "/no-such-page-[<id>]", expect: 302 },
    { name: "unknown asset", method: "GET", path: "/assets/no-such-file-[<id>].js", expect: 404 },
  ];
}

function cycling(): () => string {
  let count = 0;
  return () => `${ACCOUNT_PAGE}?sessions=ended&count=${count++ % 1001}`;
}

type Tally = { responses: number; unexpected: Map<string, number> };

/**
 * The mixed load: every connection goes through the kinds in turn. Signed-in kinds send the session's current
 * cookie, which `cookie()` returns, as a browser would send the latest one it was given.
 */
function mixedLoad(
  url: string,
  seconds: number,
  load: { kinds: Kind[]; cookie: () => string },
  tally: Tally,
): autocannon.Options {
  const { cookie } = load;
  const requests = load.kinds.map((kind) => ({
    method: kind.method,
    path: kind.path,
    headers: kind.headers ?? {},
    ...(kind.body === undefined ? {} : { body: kind.body }),
    ...(kind.signedIn
      ? {
          setupRequest: (request: autocannon.Request) => ({
            ...request,
            ...(kind.nextPath ? { path: kind.nextPath() } : {}),
            headers: { ...request.headers, cookie: cookie() },
          }),
        }
      : {}),
    onResponse: (status: number) => {
      tally.responses++;
      if (status !== kind.expect) {
        const key = `${kind.name}: ${status}`;
        tally.unexpected.set(key, (tally.unexpected.get(key) ?? 0) + 1);
      }
    },
  }));
  return { url, connections: CONNECTIONS, pipelining: 1, duration: seconds, idReplacement: true, requests };
}

/** A load's answers must all be the expected ones: a failing portal is not a lean one. */
function check(label: string, result: autocannon.Result, tally: Tally, manifestText: string): void {
  const unexpected = [...tally.unexpected].map(([key, count]) => `${count} × ${key}`);
  if (unexpected.length === 0 && result.errors === 0 && result.timeouts === 0) return;
  // A build during the run replaces the assets under the running portal: its asset requests then fail.
  const rebuilt = readManifest() !== manifestText ? "; dist/ was rebuilt during the run, run the bench again" : "";
  throw new Error(
    `${label}: ${[...unexpected, `${result.errors} errors`, `${result.timeouts} timeouts`].join(", ")}, where every answer must be the one its kind expects${rebuilt}`,
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const duration = (seconds: number) => (seconds >= 120 ? `${Math.round(seconds / 60)} min` : `${Math.round(seconds)} s`);

type Sample = { second: number; rssBytes: number; responses: number };

/**
 * The portal's inspector (loopback only), used for one thing: a full garbage collection before memory is read. RSS
 * rises between collections and falls at each, by more than a leak would grow in minutes; after a full collection it
 * is the memory the portal retains, which is what a leak grows.
 */
type Inspector = { collectGarbage(): Promise<void>; close(): void };

async function openInspector(port: number): Promise<Inspector> {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as {
    webSocketDebuggerUrl: string;
  }[];
  const target = targets[0];
  if (!target) throw new Error("the portal's inspector lists no target");
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve, { once: true });
    socket.addEventListener("error", reject, { once: true });
  });
  let lastId = 0;
  const waiting = new Map<number, (error?: string) => void>();
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; error?: { message: string } };
    if (message.id === undefined) return;
    waiting.get(message.id)?.(message.error?.message);
    waiting.delete(message.id);
  });
  const call = (method: string) =>
    new Promise<void>((resolve, reject) => {
      const id = ++lastId;
      waiting.set(id, (error) => (error ? reject(new Error(`${method}: ${error}`)) : resolve()));
      socket.send(JSON.stringify({ id, method }));
    });
  return {
    async collectGarbage() {
      // Twice: what the first frees may let the second free more (weak references, finalizers).
      await call("HeapProfiler.collectGarbage");
      await call("HeapProfiler.collectGarbage");
      await sleep(500); // the collector hands freed pages back to the system just after
    },
    close: () => socket.close(),
  };
}

export async function memoryBenches(options: MemoryOptions): Promise<Row[]> {
  const manifestText = readManifest();
  const inspectorPort = await freePort();
  const servers = await startPortalOnUpstream({
    // The container's heap options (BENCH_NODE_OPTIONS in their place compares others).
    NODE_OPTIONS: `${process.env.BENCH_NODE_OPTIONS ?? containerNodeOptions()} --inspect=127.0.0.1:${inspectorPort} --inspect-publish-uid=http`,
  });
  let inspector: Inspector | undefined;
  try {
    const { portal } = servers;
    const gc = await openInspector(inspectorPort);
    inspector = gc;
    const retained = async () => {
      await gc.collectGarbage();
      return residentBytes(portal.pid);
    };
    // A full session list: the person signed in on as many devices as a person keeps, each in its own zone.
    let client: PortalClient | undefined;
    for (let index = 0; index < SESSIONS_PER_PERSON; index++) {
      const device = new PortalClient(portal.url);
      device.headers = { [TIME_ZONE_HEADER]: ZONES[index % ZONES.length] as string };
      client = await signIn(device, accounts.alice, fakeUpstreamCode);
    }
    if (!client) throw new Error("no session to load with");
    const session = client;
    // A browser keeps the cookie each answer sets (its "last seen", permissions refreshed after their TTL, last page):
    // visiting the repeat-view page from time to time does the same, so the load stays alike from start to end.
    const refresh = async () => {
      const answer = await session.get("/client/home");
      if (answer.status !== 200) throw new Error(`refreshing the session: ${answer.status}`);
    };
    await refresh();

    const load = { kinds: kinds(manifestText), cookie: () => session.cookieHeader };
    const warmupTally: Tally = { responses: 0, unexpected: new Map() };
    check(
      "warm-up",
      await autocannon(mixedLoad(portal.url, options.warmupSeconds, load, warmupTally)),
      warmupTally,
      manifestText,
    );
    await sleep(SETTLE_MS);
    const baseline = residentBytes(portal.pid);
    const baselineRetained = await retained();

    // The load runs until the last sample is taken, then stops.
    await refresh();
    const tally: Tally = { responses: 0, unexpected: new Map() };
    let instance: autocannon.Instance | undefined;
    const finished = new Promise<autocannon.Result>((resolve, reject) => {
      instance = autocannon(mixedLoad(portal.url, options.seconds + 60, load, tally), (error, result) =>
        error ? reject(error) : resolve(result),
      );
    });
    const start = Date.now();
    const samples: Sample[] = [{ second: 0, rssBytes: residentBytes(portal.pid), responses: 0 }];
    const halfSecond = Math.round(options.seconds / 2);
    let halfWay: Sample | undefined;
    let end: Sample | undefined;
    try {
      for (let second = 1; second <= options.seconds; second++) {
        await sleep(start + second * 1000 - Date.now());
        const sample = { second, rssBytes: residentBytes(portal.pid), responses: tally.responses };
        samples.push(sample);
        // Half-way and at the end, under the same load: the memory retained after a full collection.
        if (second === halfSecond) halfWay = { second, rssBytes: await retained(), responses: tally.responses };
        if (second === options.seconds) end = { second, rssBytes: await retained(), responses: tally.responses };
        if (second % options.sampleSeconds !== 0) continue;
        console.error(
          `  memory: ${second} s, RSS ${mib(sample.rssBytes)}, ${sample.responses.toLocaleString("en")} responses`,
        );
        await refresh();
      }
    } finally {
      instance?.stop();
    }
    const result = await finished;
    const elapsed = (Date.now() - start) / 1000;
    check("mixed load", result, tally, manifestText);
    await sleep(SETTLE_MS);
    const after = residentBytes(portal.pid);
    const afterRetained = await retained();
    if (!halfWay || !end) throw new Error("the load ended before its samples were taken");

    const peak = Math.max(...samples.map((sample) => sample.rssBytes));
    const lastUnderLoad = samples.at(-1)?.rssBytes ?? peak;
    const secondHalfRequests = end.responses - halfWay.responses;
    const growth = afterRetained / baselineRetained;
    const flatness = end.rssBytes / halfWay.rssBytes;
    const bytesPerRequest = (end.rssBytes - halfWay.rssBytes) / secondHalfRequests;
    const out = new URL("../../artifacts/bench/", import.meta.url).pathname;
    mkdirSync(out, { recursive: true });
    writeFileSync(
      `${out}memory-samples.json`,
      `${JSON.stringify({ options, connections: CONNECTIONS, baseline, baselineRetained, after, afterRetained, halfWay, end, samples }, null, 2)}\n`,
    );

    const length = duration(options.seconds);
    const shortened = options.quick ? ` (quick: ${length}, the benchmark is 10 min)` : "";
    const rate = Math.round(tally.responses / elapsed).toLocaleString("en");
    return [
      {
        name: `7a. Memory: RSS after ${length} of mixed load ÷ after start-up, each at rest after a full GC${shortened}`,
        subject: `after the load: ${mib(afterRetained)} (${mib(after)} before the GC, peak under load ${mib(peak)}); ${tally.responses.toLocaleString("en")} requests, ${rate} req/s, ${load.kinds.length} kinds, ${CONNECTIONS} connections, all answered as expected`,
        reference: `after start-up and ${options.warmupSeconds} s of warm-up: ${mib(baselineRetained)} (${mib(baseline)} before the GC)`,
        result: growth.toFixed(2),
        goal: `≤ ${MAX_GROWTH.toFixed(2)}`,
        met: growth <= MAX_GROWTH,
      },
      {
        name: `7b. Memory: growth over the second half of the load, RSS after a full GC at the end ÷ half-way${shortened}`,
        subject: `at ${duration(end.second)}: ${mib(end.rssBytes)}`,
        reference: `at ${duration(halfWay.second)}: ${mib(halfWay.rssBytes)}`,
        result: `${flatness.toFixed(2)} (${bytesPerRequest >= 0 ? "+" : ""}${bytesPerRequest.toFixed(1)} B/req over ${secondHalfRequests.toLocaleString("en")} requests)`,
        goal: `≤ ${MAX_SECOND_HALF_GROWTH.toFixed(2)}`,
        met: flatness <= MAX_SECOND_HALF_GROWTH,
      },
      {
        name: `7c. Memory: the replica's highest RSS under the load, read every second${shortened}`,
        subject: `peak ${mib(peak)}; at ${duration(end.second)} under load ${mib(lastUnderLoad)}`,
        reference: `deploy/k8s limits a pod to 512 Mi; NODE_OPTIONS ${process.env.BENCH_NODE_OPTIONS ?? containerNodeOptions()}`,
        result: mib(peak),
        goal: `< ${mib(MAX_RESIDENT_BYTES)}`,
        met: peak < MAX_RESIDENT_BYTES,
      },
    ];
  } finally {
    inspector?.close();
    await Promise.all(Object.values(servers).map((server) => server.stop()));
  }
}
