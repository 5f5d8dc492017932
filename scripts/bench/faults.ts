// A fault-injection run (`npx tsx scripts/bench/faults.ts [seconds per phase]`): two built replicas on one real Redis in
// front of the fake upstream, a steady signed-in load, then Redis stopped, Redis frozen, the upstream failing sign-ins
// under 2,000 names, a replica killed and SIGTERM; it prints per phase the 5xx, the try-again answers (503 with
// Retry-After: a replica asked about a session it never held while Redis is away), memory and log lines; and the
// sessions lost and the endings lost (a sign-out made during the outage that another replica missed).
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { createInterface } from "node:readline";
import { happyUpstream, startFakeUpstream } from "#harness/fake-upstream.ts";
import type { PortalClient } from "#harness/portal-client.ts";
import { RedisServer } from "#harness/redis-server.ts";
import { type Account, accounts, fakeUpstreamCode, signIn } from "#harness/sign-in.ts";
import { freePort, PORTAL_MAIN, residentBytes } from "#scripts/bench/processes.ts";
import { STEADY_MS } from "#server/stores/redis-link.ts";

const phaseSeconds = Number(process.argv[2] ?? 15);
const PEOPLE = 20;
const WORKERS = 16;
const FAILING_NAMES = 2_000;

type Replica = { name: string; url: string; child: ChildProcess; lines: { level: number; msg: string }[] };

async function startReplica(name: string, env: NodeJS.ProcessEnv): Promise<Replica> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--enable-source-maps", PORTAL_MAIN], {
    env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const replica: Replica = { name, url: `http://127.0.0.1:${port}`, child, lines: [] };
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on("line", (line) => {
    try {
      replica.lines.push(JSON.parse(line) as { level: number; msg: string });
    } catch {
      replica.lines.push({ level: 30, msg: line });
    }
  });
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      await fetch(`${replica.url}/healthz`);
      return replica;
    } catch {
      await sleep(100);
    }
  }
  throw new Error(`${name} did not start`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const person = (index: number): Account => ({
  site: "client",
  shortname: "ACME",
  username: `person-${index}`,
  email: `person-${index}@acme.example`,
});

let failingSignIns = false;
const happy = happyUpstream({ token: () => `token-${randomUUID()}` });
const upstream = await startFakeUpstream(
  (call, response) => {
    if (failingSignIns && call.path.startsWith("/auth/"))
      return void response.writeHead(200, { "content-type": "text/html" }).end("<html>maintenance</html>");
    return happy(call, response);
  },
  { record: false },
);
const redis = await RedisServer.start();
const env = {
  NODE_ENV: "production",
  UPSTREAM_URL: upstream.url,
  SESSION_KEY: randomBytes(32).toString("hex"),
  PUBLIC_URL: "http://localhost",
  REDIS_URL: redis.url,
  REDIS_KEY_PREFIX: `faults-${randomUUID()}:`,
  RATE_LIMIT_IP_PER_MINUTE: "100000000",
  RATE_LIMIT_USER_PER_MINUTE: "100000000",
};
const a = await startReplica("A", env);
const b = await startReplica("B", env);
const replicas = [a, b];

// One live session per person, begun on A or B; each is used on both replicas by the load.
const live: PortalClient[] = [];
for (let index = 0; index < PEOPLE; index++)
  live.push(await signIn((index % 2 ? b : a).url, person(index), fakeUpstreamCode));

const tally = { requests: 0, own5xx: 0, tryAgain: 0, refused: 0 };
let running = true;
const worker = async (index: number) => {
  for (let turn = index; running; turn += WORKERS) {
    const client = live[turn % live.length] as PortalClient;
    // A killed replica's share goes to the other, as a balancer would send it.
    const alive = replicas.filter((replica) => replica.child.exitCode === null && replica.child.signalCode === null);
    const replica = alive[turn % alive.length] as Replica;
    const path = turn % 3 === 0 ? "/client/users/change-password" : "/client/home";
    try {
      const answer = await fetch(`${replica.url}${path}`, {
        headers: { cookie: client.cookieHeader },
        redirect: "manual",
      });
      await answer.arrayBuffer();
      tally.requests++;
      if (answer.status === 503 && answer.headers.has("retry-after")) tally.tryAgain++;
      else if (answer.status >= 500) tally.own5xx++;
      if (answer.status === 302) tally.refused++;
    } catch {
      await sleep(10);
    }
  }
};
const workers = Array.from({ length: WORKERS }, (_, index) => worker(index));

type Phase = {
  name: string;
  lines: Record<string, Record<string, number>>;
  requests: number;
  own5xx: number;
  tryAgain: number;
  refused: number;
};
const phases: Phase[] = [];
async function phase(name: string, work: () => Promise<void>): Promise<void> {
  const marks = replicas.map((replica) => replica.lines.length);
  const before = { ...tally };
  await work();
  const lines: Record<string, Record<string, number>> = {};
  replicas.forEach((replica, index) => {
    const said = replica.lines
      .slice(marks[index])
      .filter((line) => line.level >= 40 || /redis|upstream/.test(line.msg));
    const counts: Record<string, number> = {};
    for (const line of said) counts[line.msg] = (counts[line.msg] ?? 0) + 1;
    lines[replica.name] = counts;
  });
  phases.push({
    name,
    lines,
    requests: tally.requests - before.requests,
    own5xx: tally.own5xx - before.own5xx,
    tryAgain: tally.tryAgain - before.tryAgain,
    refused: tally.refused - before.refused,
  });
  console.error(`  faults: ${name} done`);
}

const rss = () =>
  replicas.map((replica) => (replica.child.exitCode === null ? residentBytes(replica.child.pid ?? 0) : 0));
const rssAtStart = rss();
await phase("steady load", async () => {
  await sleep(phaseSeconds * 1000);
});
const logout = (url: string, client: PortalClient) =>
  fetch(`${url}/session/logout`, {
    method: "POST",
    headers: { cookie: client.cookieHeader, "x-portal-request": "1" },
    redirect: "manual",
  }).then((answer) => answer.status);
const homeStatus = (url: string, client: PortalClient) =>
  fetch(`${url}/client/home`, { headers: { cookie: client.cookieHeader }, redirect: "manual" }).then(
    (answer) => answer.status,
  );
// Sessions signed in on A and seen by B, signed out on A while Redis is away: B must learn each ending.
const leaving: PortalClient[] = [];
const endings = { made: 0, lost: 0, signOutsRefused: 0 };
await phase("redis stopped: 20 sign-outs on A of sessions B holds, 20 sign-ins on A signed out on B", async () => {
  for (let index = 0; index < 20; index++) {
    const client = await signIn(a.url, person(PEOPLE + index), fakeUpstreamCode);
    await homeStatus(b.url, client);
    leaving.push(client);
  }
  await redis.stop();
  for (const client of leaving) if ((await logout(a.url, client)) === 303) endings.made++;
  for (let round = 0; round < 20; round++) {
    // A person of its own: its sign-outs asked to try again leave it 20 live sessions, within the bound.
    const passing = await signIn(a.url, person(PEOPLE + 20), fakeUpstreamCode);
    // B never held this session: it may only ask to try again, never end it or guess.
    if ((await logout(b.url, passing)) === 503) endings.signOutsRefused++;
  }
  await sleep(phaseSeconds * 1000);
  await redis.restart();
  // Past the minute within which a new drop would belong to the same outage (server/stores/redis-link.ts).
  await sleep(STEADY_MS + 5_000);
  for (const client of leaving) if ((await homeStatus(b.url, client)) === 200) endings.lost++;
});
await phase("redis frozen", async () => {
  redis.freeze();
  await sleep(phaseSeconds * 1000);
  redis.thaw();
  await sleep(5_000);
});
await phase(`upstream failing sign-ins under ${FAILING_NAMES} names`, async () => {
  failingSignIns = true;
  const started = Date.now();
  for (let index = 0; index < FAILING_NAMES; index++)
    await fetch(`${(replicas[index % 2] as Replica).url}/api/auth/client`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-portal-request": "1" },
      body: JSON.stringify({ shortname: "ACME", username: `failing-${randomUUID()}`, password: "pw" }),
    }).then((answer) => answer.arrayBuffer());
  await sleep(Math.max(0, phaseSeconds * 1000 - (Date.now() - started)));
  failingSignIns = false;
  await signIn(a.url, accounts.alice, fakeUpstreamCode);
  await signIn(b.url, accounts.alice, fakeUpstreamCode);
});
const rssBeforeKill = rss();
await phase("replica B killed", async () => {
  b.child.kill("SIGKILL");
  await sleep(phaseSeconds * 1000);
});
running = false;
await Promise.all(workers);

let lost = 0;
for (const client of live) if ((await homeStatus(a.url, client)) !== 200) lost++;
const stopped = Date.now();
const exit = new Promise<number | null>((resolve) => a.child.once("exit", (code) => resolve(code)));
a.child.kill("SIGTERM");
const code = await exit;
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
console.log(
  JSON.stringify(
    {
      phaseSeconds,
      phases,
      sessionsLost: `${lost} of ${live.length}`,
      endingsLost: `${endings.lost} of ${endings.made} sign-outs made during the outage`,
      signOutsAskedToTryAgain: `${endings.signOutsRefused} of 20`,
      rss: { atStart: rssAtStart.map(mib), beforeKill: rssBeforeKill.map(mib) },
      sigterm: { exitCode: code, ms: Date.now() - stopped },
    },
    null,
    2,
  ),
);
await redis.stop();
await upstream.close();
