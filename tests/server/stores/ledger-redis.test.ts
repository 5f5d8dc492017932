// server/stores/ledger-redis.ts: two replicas' ledgers on one real redis-server. A record reads back as written, its
// token sealed at rest; an ending is set once, whichever replica asks, and no later write undoes it; each replica
// hears the writes and endings of the records it holds and reads them from its memory. While Redis is stopped a held
// record still reads, an unknown one reads UNAVAILABLE, and what was written or ended meanwhile reaches Redis and the
// other replica when it returns, empty: it gets every record held back.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { Redis } from "ioredis";
import { RedisServer } from "#harness/redis-server.ts";
import type { SessionRecord } from "#server/session/record.ts";
import { recordSeal } from "#server/session/record-seal.ts";
import { LINGER_MS, UNAVAILABLE } from "#server/stores/ledger.ts";
import { RedisLedger } from "#server/stores/ledger-redis.ts";
import { redisKeys } from "#server/stores/redis-keys.ts";
import { RedisLink } from "#server/stores/redis-link.ts";
import { testRecord, testRedisLedger, testSeal } from "#tests/support/stores.ts";
import { until } from "#tests/support/waiting.ts";

const LIFETIME_MS = 3_600_000;
const person = () => `client/acme/${randomUUID()}`;

type Replica = ReturnType<typeof testRedisLedger>;

/** How many MGETs the replica's link sent: each is a read of records from Redis. */
function countReads(link: RedisLink): { readonly count: number } {
  const commands = link.commands;
  const mget = commands.mget;
  const counted = { count: 0 };
  commands.mget = ((...args: Parameters<typeof mget>) => {
    counted.count++;
    return mget.apply(commands, args);
  }) as typeof mget;
  return counted;
}

/** The record as the replica holds it in memory: undefined when reading it would ask Redis. */
function heldBy(ledger: RedisLedger, id: string): SessionRecord | undefined {
  const found = ledger.read(id);
  return found instanceof Promise ? undefined : found;
}

describe("two replicas' ledgers on one redis", () => {
  let server: RedisServer;
  let raw: Redis;
  const prefix = `ledger-${randomUUID()}:`;
  const keys = redisKeys(prefix);
  /** The replicas' clock, moved by the tests; Redis keeps its own expiries, far beyond any test. */
  const clock = { time: Date.now() };
  const opened: Replica[] = [];
  /** One more replica; `wait`: once its first pass with Redis is over. */
  const open = async (options: Parameters<typeof testRedisLedger>[1] = {}, wait = true) => {
    const now = () => clock.time;
    const replica = testRedisLedger(server.url, { keyPrefix: prefix, lifetimeMs: LIFETIME_MS, now, ...options });
    opened.push(replica);
    if (wait) await replica.ready();
    return replica;
  };
  let a: Replica;
  let b: Replica;
  /** A record written on A, in Redis, and held by B too. */
  const shared = async (who = person(), born = clock.time) => {
    const id = randomUUID();
    const record = testRecord(who, born);
    a.ledger.write(id, record);
    await until(async () => (await raw.exists(keys.record(id))) === 1, 2_000, "the record in Redis");
    assert.deepEqual(await b.ledger.read(id), record);
    return { id, record };
  };
  const usable = (replica: Replica) => replica.link.usable;

  before(async () => {
    server = await RedisServer.start();
    raw = new Redis(server.url);
    a = await open();
    b = await open();
  });
  after(async () => {
    raw.disconnect();
    await Promise.all(opened.map((replica) => replica.close()));
    await server.stop();
  });

  it("reads a record back as written: from memory on the replica that wrote it, from Redis on another", async () => {
    const id = randomUUID();
    const record = testRecord(person(), clock.time, { timeZone: "Europe/Paris", previousPage: "/client/home" });
    a.ledger.write(id, record);
    assert.deepEqual(heldBy(a.ledger, id), record, "at once, with no round trip");
    await until(async () => (await raw.exists(keys.record(id))) === 1, 2_000, "the record in Redis");
    assert.deepEqual(await b.ledger.read(id), record);
    assert.equal(await b.ledger.read(randomUUID()), undefined, "an id never written is unknown");
  });

  it("keeps the record in Redis sealed with the session key for its id: never in clear, never changed or moved", async () => {
    const { id, record } = await shared();
    const other = await shared();
    const stored = (await raw.get(keys.record(id))) ?? "";
    assert.ok(
      !stored.includes(record.person) && !stored.includes(record.auth.token),
      "neither whose it is nor its token",
    );
    const opened = JSON.parse(testSeal.open(stored, id) ?? "{}") as SessionRecord;
    assert.equal(opened.auth.token, record.auth.token, "sealed with the replicas' key");
    const stranger = await open({ seal: recordSeal([Buffer.alloc(32, 9)]) });
    assert.equal(await stranger.ledger.read(id), undefined, "a replica with another key opens nothing");
    // Someone who can write to Redis puts one record under another's id, or forges an ending: nothing opens.
    await raw.set(keys.record(other.id), stored);
    await raw.set(keys.ending(id), JSON.stringify({ at: clock.time, reason: "signed-out" }));
    const c = await open();
    assert.equal(await c.ledger.read(other.id), undefined, "a record moved to another id is no record");
    const read = await c.ledger.read(id);
    assert.equal(typeof read === "object" && read.ended, undefined, "an ending not sealed by the portal ends nothing");
  });

  it("lists every record of a person's index, however many sign-ins came after the oldest: none is pushed out", async () => {
    const who = person();
    const oldest = await shared(who, clock.time - 60_000);
    for (let index = 0; index < 250; index++)
      a.ledger.write(randomUUID(), {
        ...testRecord(who, clock.time - index),
        auth: { ...oldest.record.auth, stage: "pending" },
      });
    await until(() => a.ledger.pending === 0, 5_000, "every write taken");
    const { sessions, complete } = await (await open()).ledger.of(who);
    assert.equal(complete, true);
    assert.equal(sessions.length, 251, "every one of them");
    assert.equal(sessions.at(-1)?.[0], oldest.id, "the oldest last, still there to be ended");
  });

  it("fetches a record it does not hold from Redis once, then reads it from its memory", async () => {
    const id = randomUUID();
    const record = testRecord(person(), clock.time);
    a.ledger.write(id, record);
    await until(async () => (await raw.exists(keys.record(id))) === 1, 2_000, "the record in Redis");
    const c = await open();
    const reads = countReads(c.link);
    assert.deepEqual(await c.ledger.read(id), record);
    assert.equal(reads.count, 1);
    for (let again = 0; again < 3; again++) assert.deepEqual(heldBy(c.ledger, id), record, "from memory");
    assert.equal(reads.count, 1, "no more round trips");
  });

  it("ends a record once, whichever replica asks, and no later write undoes the ending", async () => {
    const { id, record } = await shared();
    const ending = { at: clock.time, reason: "signed-out" } as const;
    assert.equal(await a.ledger.end(id, ending), true, "the first end");
    assert.equal(await b.ledger.end(id, { at: clock.time + 1, reason: "ended-elsewhere" }), false, "on B");
    assert.equal(await a.ledger.end(id, ending), false, "on A again");
    a.ledger.write(id, { ...record, seen: clock.time + 2 });
    assert.deepEqual(heldBy(a.ledger, id)?.ended, ending, "A's own write does not undo it");
    // A replica that never held the record writes the copy a late request read before the ending: Redis refuses it.
    const late = await open();
    late.ledger.write(id, { ...record, seen: clock.time + 3 });
    await until(() => late.ledger.pending === 0, 2_000, "the late write sent");
    await until(() => heldBy(late.ledger, id)?.ended !== undefined, 2_000, "the refused writer to learn the ending");
    const fresh = await open();
    const found = await fresh.ledger.read(id);
    assert.deepEqual(found === UNAVAILABLE ? undefined : found?.ended, ending, "Redis keeps the first ending");
    assert.equal(found !== UNAVAILABLE && found?.auth.token, "", "and no token");
  });

  it("ends a record ended on both replicas at once exactly once", async () => {
    for (let round = 0; round < 10; round++) {
      const { id } = await shared();
      const firsts = await Promise.all([
        a.ledger.end(id, { at: clock.time, reason: "signed-out" }),
        b.ledger.end(id, { at: clock.time, reason: "ended-elsewhere" }),
      ]);
      assert.deepEqual(firsts.filter(Boolean), [true], `round ${round}: one of them ended it`);
    }
  });

  it("hears another replica's write and ending of a record it holds, and reads them from its memory", async () => {
    const { id, record } = await shared();
    const reads = countReads(b.link);
    a.ledger.write(id, { ...record, seen: clock.time + 60_000 });
    await until(() => heldBy(b.ledger, id)?.seen === clock.time + 60_000, 1_000, "B to hear the write");
    await a.ledger.end(id, { at: clock.time + 61_000, reason: "password-changed" });
    await until(() => heldBy(b.ledger, id)?.ended !== undefined, 1_000, "B to hear the ending");
    assert.deepEqual(heldBy(b.ledger, id)?.ended, { at: clock.time + 61_000, reason: "password-changed" });
    assert.equal(heldBy(b.ledger, id)?.auth.token, "", "the ended copy keeps no token");
    assert.equal(reads.count, 0, "no round trip");
  });

  it("keeps nothing it hears of a record it does not hold", async () => {
    const marker = await shared();
    const id = randomUUID();
    a.ledger.write(id, testRecord(person(), clock.time));
    a.ledger.write(marker.id, { ...marker.record, seen: clock.time + 1 }); // announced after the first, on one channel
    await until(() => heldBy(b.ledger, marker.id)?.seen === clock.time + 1, 1_000, "B to hear both");
    assert.equal(heldBy(b.ledger, id), undefined, "not kept: B asks Redis when it needs it");
  });

  it("lists a person's records from every replica, newest first, ended ones too", async () => {
    const who = person();
    const older = await shared(who, clock.time - 300);
    const middle = { id: randomUUID(), record: testRecord(who, clock.time - 200) };
    b.ledger.write(middle.id, middle.record);
    const newest = await shared(who, clock.time - 100);
    await a.ledger.end(older.id, { at: clock.time, reason: "limit" });
    await shared(); // another person's
    await until(async () => (await raw.exists(keys.record(middle.id))) === 1, 2_000, "B's record in Redis");
    for (const replica of [a, b]) {
      const listed = await replica.ledger.of(who);
      assert.equal(listed.complete, true);
      assert.deepEqual(
        listed.sessions.map(([id, record]) => [id, record.ended?.reason]),
        [
          [newest.id, undefined],
          [middle.id, undefined],
          [older.id, "limit"],
        ],
      );
    }
  });

  it("reads a record past its lifetime and linger on the app's clock as unknown, though Redis still has it", async () => {
    // Redis keeps it for the minute it has left by the replicas' clock when it was written.
    const { id } = await shared(person(), clock.time - LIFETIME_MS - LINGER_MS + 60_000);
    const c = await open();
    const saved = clock.time;
    clock.time += 60_001;
    try {
      assert.equal(await raw.exists(keys.record(id)), 1, "Redis still has it");
      assert.equal(await a.ledger.read(id), undefined, "gone from A's memory, and not kept when read from Redis");
      assert.equal(await c.ledger.read(id), undefined, "and not kept when read from Redis");
    } finally {
      clock.time = saved;
    }
  });

  it("keeps its memory within its bytes, and fetches an evicted record from Redis again", async () => {
    const small = await open({ maxBytes: 3 * 1024 + 200 });
    const records = Array.from({ length: 4 }, () => ({ id: randomUUID(), record: testRecord(person(), clock.time) }));
    for (const { id, record } of records) small.ledger.write(id, record);
    await until(() => small.ledger.pending === 0, 2_000, "every write sent");
    const [first] = records;
    assert.ok(first);
    assert.equal(heldBy(small.ledger, first.id), undefined, "the least recently used left its memory");
    assert.deepEqual(await small.ledger.read(first.id), first.record, "and is read from Redis");
  });

  describe("while Redis is stopped, and once it returns empty", () => {
    const who = person();
    let held: { id: string; record: SessionRecord };
    let unknown: string;
    let ended: string[];
    const endedOnB = randomUUID();
    const written = { id: randomUUID(), record: testRecord(who, clock.time + 10) };

    it("a held record still reads, an unknown one reads UNAVAILABLE, and writes and endings are kept", async () => {
      held = await shared(who);
      const other = await shared(who, clock.time - 10);
      unknown = (await shared()).id;
      ended = [];
      for (let index = 0; index < 50; index++) ended.push((await shared(who, clock.time - 1_000 - index)).id);
      await server.stop();
      await until(() => !usable(a) && !usable(b), 3_000, "both replicas to see Redis gone");

      assert.deepEqual(heldBy(a.ledger, held.id), held.record, "A reads what it holds");
      assert.deepEqual(heldBy(b.ledger, held.id), held.record, "and so does B");
      const c = await open({}, false);
      assert.equal(await c.ledger.read(unknown), UNAVAILABLE, "never ended, never guessed");
      assert.equal(await c.ledger.read(randomUUID()), UNAVAILABLE);

      a.ledger.write(held.id, { ...held.record, seen: clock.time + 5 });
      a.ledger.write(written.id, written.record);
      for (const id of ended) assert.equal(await a.ledger.end(id, { at: clock.time, reason: "password-reset" }), true);
      assert.equal(await b.ledger.end(other.id, { at: clock.time, reason: "signed-out" }), true);
      b.ledger.write(endedOnB, testRecord(who, clock.time - 5));
      assert.equal(await b.ledger.end(endedOnB, { at: clock.time, reason: "signed-out" }), true);
      assert.equal(a.ledger.pending, 2 + ended.length, "two writes and the endings wait on A");
      assert.equal(heldBy(a.ledger, ended[0] ?? "")?.ended?.reason, "password-reset", "ended on A at once");

      const listed = await a.ledger.of(who);
      assert.equal(listed.complete, false, "A's records alone");
      const ids = listed.sessions.map(([id]) => id);
      assert.deepEqual(ids.slice(0, 3), [written.id, held.id, other.id], "newest first");
      assert.equal(ids.length, 3 + ended.length);
    });

    it("what was written and ended meanwhile reaches Redis and the other replica when it returns: no ending lost", async () => {
      await server.restart();
      await until(() => usable(a) && usable(b), 10_000, "both links back");
      await until(() => a.ledger.pending === 0 && b.ledger.pending === 0, 5_000, "everything sent");
      const endings = await raw.mget(...[...ended, endedOnB].map((id) => keys.ending(id)));
      assert.equal(endings.filter((value) => value === null).length, 0, "every ending is in Redis");
      await until(
        () => ended.every((id) => heldBy(b.ledger, id)?.ended?.reason === "password-reset"),
        3_000,
        "B to hold every ending made on A",
      );
      await until(() => heldBy(b.ledger, held.id)?.seen === clock.time + 5, 3_000, "B to hold A's write");
      assert.deepEqual(await b.ledger.read(written.id), written.record, "the record written on A meanwhile");
      const listed = await b.ledger.of(who);
      assert.equal(listed.complete, true);
      assert.equal(listed.sessions[0]?.[0], written.id);
    });

    it("a replica started afterwards reads every record the replicas held, live or ended, from the Redis that came back empty", async () => {
      const c = await open();
      assert.deepEqual(await c.ledger.read(unknown), heldBy(a.ledger, unknown), "a record nobody wrote since");
      assert.equal((await c.ledger.read(held.id)) !== UNAVAILABLE, true);
      assert.deepEqual(await c.ledger.read(held.id), heldBy(a.ledger, held.id));
      for (const id of [ended[0] ?? "", endedOnB])
        assert.equal(await raw.exists(keys.record(id), keys.ending(id)), 2, "an ended record is back, with its ending");
      const found = await c.ledger.read(ended[0] ?? "");
      assert.equal(found === UNAVAILABLE ? found : found?.ended?.reason, "password-reset", "an ended one, ended");
      const endedHere = await c.ledger.read(endedOnB);
      assert.equal(endedHere === UNAVAILABLE ? endedHere : endedHere?.ended?.reason, "signed-out");
    });
  });
});

describe("two replicas' ledgers on a Redis at its maxmemory", () => {
  it("still take a new record and its ending, share them, and see no outage", async () => {
    const server = await RedisServer.start();
    const prefix = `full-${randomUUID()}:`;
    const replicas = [0, 1, 2].map(() => testRedisLedger(server.url, { keyPrefix: prefix, lifetimeMs: LIFETIME_MS }));
    const [a, b, late] = replicas as [Replica, Replica, Replica];
    try {
      await Promise.all([a.ready(), b.ready()]);
      await server.config("maxmemory", "1"); // below what it holds: every write that could grow it is refused
      const id = randomUUID();
      const record = testRecord(person(), Date.now());
      a.ledger.write(id, record);
      await until(() => a.ledger.pending === 0, 2_000, "the write taken");
      assert.deepEqual(await b.ledger.read(id), record, "B reads the session A began");
      assert.equal(await a.ledger.end(id, { at: Date.now(), reason: "signed-out" }), true);
      await until(() => heldBy(b.ledger, id)?.ended?.reason === "signed-out", 2_000, "B to hear the sign-out");
      await late.ready();
      const found = await late.ledger.read(id);
      assert.equal(
        found === UNAVAILABLE ? found : found?.ended?.reason,
        "signed-out",
        "a later replica reads it ended",
      );
      for (const { link, log } of [a, b]) {
        assert.ok(link.up, "the link stays up");
        assert.equal(log.events("redis-down"), 0, "a full Redis is no outage");
      }
    } finally {
      await server.config("maxmemory", "0");
      await Promise.all(replicas.map((replica) => replica.close()));
      await server.stop();
    }
  });
});

describe("a pass whose answer has a hole", () => {
  it("leaves the write and the ending pending, and sends them again when the link comes up", async () => {
    const keys = redisKeys("holes:");
    const failures: unknown[] = [];
    let up = () => {};
    let hole = false;
    const sent: string[] = [];
    // A link whose pipelines answer each command, or, while `hole`, one command timed out, as a busy Redis answers.
    const pipeline = () => {
      const queued: string[] = [];
      const commands = {
        get length() {
          return queued.length;
        },
        portalLedgerWrite: () => {
          queued.push("write");
          return commands;
        },
        portalLedgerEnd: () => {
          queued.push("end");
          return commands;
        },
        exec: async () => {
          sent.push(...queued);
          return queued.map((_, index) => (hole && index === 0 ? [new Error("Command timed out"), null] : [null, 1]));
        },
      };
      return commands;
    };
    const link = {
      commands: { pipeline, mget: async (...ids: string[]) => ids.map(() => null), info: async () => "run_id:one\r\n" },
      usable: true,
      now: Date.now,
      onMessage: () => {},
      onUp: (listener: () => void) => {
        up = listener;
      },
      failed: (error: unknown) => failures.push(error),
      either: RedisLink.prototype.either, // the real link's: the task while usable, else (or on failure) the other
    } as unknown as RedisLink;
    const ledger = new RedisLedger(link, keys, LIFETIME_MS, testSeal);
    await ledger.sync();
    hole = true;
    const [written, ended] = [randomUUID(), randomUUID()];
    ledger.write(written, testRecord(person(), Date.now()));
    ledger.write(ended, testRecord(person(), Date.now()));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(await ledger.end(ended, { at: Date.now(), reason: "signed-out" }), true, "ended here at once");
    assert.equal(failures.length, 3, "each failed send told the link");
    assert.equal(ledger.pending, 2, "a write and an ending wait");
    hole = false;
    up();
    await ledger.sync();
    assert.equal(ledger.pending, 0, "both sent");
    assert.deepEqual(sent.slice(-2), ["end", "write"], "the ending first");
    assert.equal(failures.length, 3);
  });
});
