// server/stores/redis-link.ts: Redis stopped, hung or restarted empty mid-run: every call through the link is bounded
// by its timeouts, the stores fall back to memory, the outage is logged once, and the link reconnects and recovers.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { RedisServer } from "#harness/redis-server.ts";
import type { Stores } from "#server/stores/create-stores.ts";
import { UNAVAILABLE } from "#server/stores/ledger.ts";
import { outOfMemory, RedisLink } from "#server/stores/redis-link.ts";
import { keptLog, testRecord, testStores } from "#tests/support/stores.ts";
import { scaled, timed, until } from "#tests/support/waiting.ts";

/** Commands time out after 200 ms in these tests; an answer within this is "no hang". */
const BOUNDED_MS = scaled(700);

type Replica = { stores: Stores; log: ReturnType<typeof keptLog>; states: boolean[] };

describe("a refused write", () => {
  it("is Redis's maxmemory, for a command and for a transaction it discarded: never an outage", () => {
    assert.equal(outOfMemory(new Error("OOM command not allowed when used memory > 'maxmemory'.")), true);
    assert.equal(outOfMemory(new Error("EXECABORT Transaction discarded because of previous errors.")), true);
    assert.equal(outOfMemory(new Error("Command timed out")), false);
  });
});

describe("redis down, hung or restarted", () => {
  let server: RedisServer;
  const replicas: Replica[] = [];
  /** Reconnect attempts, by every replica's links: each waits 20 ms, so an outage goes through many quickly. */
  let attempts = 0;
  const retryStrategy = () => {
    attempts += 1;
    return 20;
  };
  const open = async (wait = true): Promise<Replica> => {
    const log = keptLog();
    const states: boolean[] = [];
    const stores = testStores(server.url, { log, onRedisState: (up) => states.push(up), retryStrategy });
    const replica = { stores, log, states };
    replicas.push(replica);
    if (wait) await stores.ready();
    return replica;
  };
  const upOn = (replica: Replica) => until(async () => (await health(replica)).up, 10_000, "redis up again");
  const health = async ({ stores }: Replica) => {
    const answer = await stores.health();
    assert.equal(answer.backend, "redis");
    return answer.backend === "redis" ? answer : { up: false, pendingSessionWrites: -1 };
  };
  /** How the replica reads the session's record: its ending's reason, "live", or why it could not say. */
  const reads = async ({ stores }: Replica, sid: string) => {
    const found = await stores.ledger.read(sid);
    return found === undefined || found === UNAVAILABLE ? String(found) : (found.ended?.reason ?? "live");
  };
  /** A signed-in session's record, written on `replica`. */
  const signedIn = (replica: Replica, sid: string) => {
    replica.stores.ledger.write(sid, testRecord("client/acme/alice", Date.now()));
  };

  let a: Replica;
  let b: Replica;
  /** Ended before the outage; ended during it; live throughout. Each written on A and read on B beforehand. */
  const before1 = randomUUID();
  const during = randomUUID();
  const live = randomUUID();

  before(async () => {
    server = await RedisServer.start();
    a = await open();
    b = await open();
    for (const sid of [before1, during, live]) {
      signedIn(a, sid);
      await until(async () => (await reads(b, sid)) === "live", 1_000, "B to read the record written on A");
    }
    await a.stores.ledger.end(before1, { at: Date.now(), reason: "signed-out" });
    await until(async () => (await reads(b, before1)) === "signed-out", 1_000, "B to hear the first ending");
  });
  after(async () => {
    await Promise.all(replicas.map(({ stores }) => stores.close()));
    await server.stop();
  });

  it("stopped: held records answer from memory, an ending is kept here, counts fall back per replica", async () => {
    await server.stop();
    await until(async () => !(await health(a)).up, 2_000, "A to see redis down");

    for (const replica of [a, b]) {
      assert.equal(await reads(replica, before1), "signed-out", "pages keep refusing what had ended");
      assert.equal(await reads(replica, live), "live", "and serving what lives");
    }

    const end = await timed(() => a.stores.ledger.end(during, { at: Date.now(), reason: "signed-out" }));
    assert.ok(end.ms < BOUNDED_MS, `end took ${end.ms} ms`);
    assert.equal(await reads(a, during), "signed-out", "refused at once on the replica that ended it");
    assert.equal((await health(a)).pendingSessionWrites, 1);

    const key = `sign-in|ip|${randomUUID()}`;
    const counts = [];
    for (let index = 0; index < 3; index += 1) {
      const hit = await timed(() => a.stores.counters.hit(key, 60_000));
      assert.ok(hit.ms < BOUNDED_MS, `hit took ${hit.ms} ms`);
      counts.push(hit.value.count);
    }
    assert.deepEqual(counts, [1, 2, 3], "still counted: not unlimited");
    assert.equal((await b.stores.counters.hit(key, 60_000)).count, 1, "per replica: not everyone locked out");

    const lock = `mfa-validate|${randomUUID()}`;
    assert.equal(await a.stores.locks.acquire(lock, 5_000), true);
    assert.equal(await a.stores.locks.acquire(lock, 5_000), false, "one in flight on this replica");
    await a.stores.locks.release(lock);
  });

  it("stopped: the outage is logged once and reported once to the metric hook, however long it lasts", async () => {
    // Several reconnect attempts of each replica's two links fail meanwhile.
    const from = attempts;
    await until(() => attempts >= from + 12, 5_000, "several reconnect attempts to fail");
    for (const replica of [a, b]) {
      assert.equal(replica.log.events("redis-down"), 1);
      assert.deepEqual(replica.states, [true, false]);
    }
    const { ms } = await timed(() => a.stores.health());
    assert.ok(ms < BOUNDED_MS, `health took ${ms} ms`);
  });

  it("stopped: a replica starting now starts in bounded time and serves from memory", async () => {
    const { value: late, ms } = await timed(() => open());
    assert.ok(ms < scaled(2_000), `start took ${ms} ms`);
    assert.equal(late.log.events("redis-down"), 1);
    assert.equal((await late.stores.counters.hit(`k|${randomUUID()}`, 60_000)).count, 1);
  });

  it("restarted empty: the links come back, an ending made during the outage reaches the others", async () => {
    await server.restart();
    for (const replica of replicas) await upOn(replica);
    await until(async () => (await reads(b, during)) === "signed-out", 2_000, "B to hear the ending made meanwhile");
    // B may read the ending from Redis a moment before A's pass has counted it sent.
    await until(async () => (await health(a)).pendingSessionWrites === 0, 2_000, "A to count the ending sent");
    assert.equal((await health(a)).pendingSessionWrites, 0);
    for (const replica of [a, b]) {
      assert.equal(replica.log.events("redis-up"), 2);
      assert.deepEqual(replica.states, [true, false, true]);
    }
  });

  it("restarted empty: a replica started afterwards still serves what lives and refuses what ended before and during the outage", async () => {
    // The restarted server lost every key; the running replicas wrote back the records they hold.
    const c = await open();
    assert.equal(await reads(c, live), "live");
    // Refused: ended, or unknown (ledger-redis.test.ts asks for the ending itself); never live, never "try again".
    for (const sid of [before1, during]) assert.ok(["signed-out", "undefined"].includes(await reads(c, sid)), sid);
    const key = `sign-in|user|${randomUUID()}`;
    await a.stores.counters.hit(key, 60_000);
    assert.equal((await c.stores.counters.hit(key, 60_000)).count, 2, "counts shared again");
  });

  it("hung (no answer at all): every call is bounded by the command timeout, and it recovers", async () => {
    server.freeze();
    try {
      const key = `sign-in|ip|${randomUUID()}`;
      const hit = await timed(() => a.stores.counters.hit(key, 60_000));
      assert.ok(hit.ms < BOUNDED_MS, `hit took ${hit.ms} ms`);
      assert.equal(hit.value.count, 1, "counted in memory");
      const end = await timed(() => a.stores.ledger.end(live, { at: Date.now(), reason: "ended-elsewhere" }));
      assert.ok(end.ms < BOUNDED_MS, `end took ${end.ms} ms`);
      assert.equal(await reads(a, live), "ended-elsewhere");
      const lock = await timed(() => a.stores.locks.acquire(`mfa-validate|${randomUUID()}`, 5_000));
      assert.ok(lock.ms < BOUNDED_MS && lock.value, `lock took ${lock.ms} ms`);
      const check = await timed(() => health(a));
      assert.ok(check.ms < BOUNDED_MS && !check.value.up, `health took ${check.ms} ms`);
      server.thaw();
      await upOn(a);
      await until(
        async () => (await reads(b, live)) === "ended-elsewhere",
        3_000,
        "B to hear the ending made meanwhile",
      );
    } finally {
      server.thaw();
    }
  });
});

describe("redis flapping", () => {
  let server: RedisServer;
  before(async () => {
    server = await RedisServer.start();
  });
  after(() => server.stop());

  it("refusing writes (maxmemory) for seconds: no outage at all, one line when it starts, each refusal counted", async () => {
    const log = keptLog();
    const states: boolean[] = [];
    let refused = 0;
    const stores = testStores(server.url, {
      keyPrefix: "flap:",
      log,
      onRedisState: (up) => states.push(up),
      onRedisRefused: () => refused++,
    });
    try {
      await stores.ready();
      await until(() => states.includes(true), 2_000, "the link up");
      await server.config("maxmemory", "1"); // below what it holds: every write that could grow it is refused
      // 2.5 s of sign-in counts under new names, past the probe's 1-second cycle that brought the link back each time.
      const started = Date.now();
      let hits = 0;
      while (Date.now() - started < 2_500) {
        const { count } = await stores.counters.hit(`sign-in|ip|${randomUUID()}`, 60_000);
        assert.equal(count, 1, "counted in the replica");
        hits++;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.deepEqual(states, [true], "the link stayed up");
      assert.equal(log.events("redis-down") + log.events("redis-up"), 1, "only the first up");
      assert.equal(log.events("redis-full"), 1);
      assert.equal(refused, hits, "each refusal counted for /metrics");
    } finally {
      await server.config("maxmemory", "0");
      await stores.close();
    }
  });

  it("dropping again and again within a minute of coming back: the outage is said when it starts and ends, its drops counted", async () => {
    const log = keptLog();
    const states: boolean[] = [];
    const stores = testStores(server.url, { keyPrefix: "flap2:", log, onRedisState: (up) => states.push(up) });
    try {
      await stores.ready();
      await until(() => states.at(-1) === true, 2_000, "the link up");
      const up = async () => {
        const health = await stores.health();
        return health.backend === "redis" && health.up && states.at(-1) === true;
      };
      for (let drop = 0; drop < 3; drop++) {
        server.freeze(); // a command times out: the link goes down; a PING brings it back
        await stores.counters.hit(`sign-in|ip|${randomUUID()}`, 60_000);
        server.thaw();
        await until(up, 3_000, "the link back");
      }
      assert.deepEqual(states, [true, false, true, false, true, false, true], "each drop reported to the gauge");
      assert.equal(log.events("redis-down"), 1, "said once when it started");
      assert.equal(log.events("redis-up"), 2, "at start, and once when it came back");
    } finally {
      server.thaw();
      await stores.close();
    }
  });
});

describe("redis dropping again soon after coming back", () => {
  it("an outage that starts within the steady window and lasts is said when it starts and when it ends", async () => {
    const server = await RedisServer.start();
    const log = keptLog();
    const link = new RedisLink({
      url: server.url,
      log,
      now: Date.now,
      channel: `lasting-${randomUUID()}`,
      connectTimeoutMs: 300,
      commandTimeoutMs: 200,
      lastingMs: 300, // a drop inside the window is said once it lasts this long (seconds in production)
    });
    try {
      await until(() => link.up, 3_000, "the link up");
      await server.stop();
      await until(() => !link.up, 3_000, "the first outage");
      await server.restart();
      await until(() => link.up, 5_000, "the link back");
      await server.stop(); // again, well within a minute of the recovery
      await until(() => !link.up, 3_000, "the second outage");
      await until(() => log.events("redis-down") === 2, 2_000, "the lasting outage said");
      await server.restart();
      await until(() => link.up, 5_000, "the link back again");
      await until(() => log.events("redis-up") === 3, 1_000, "its end said");
      const down = log.lines.filter((line) => line.event === "redis-down").at(-1)?.fields as { drops?: number };
      assert.equal(down.drops, 2, "the drops since the first outage counted");
    } finally {
      await link.close();
      await server.stop();
    }
  });
});
