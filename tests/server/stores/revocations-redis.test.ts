// server/stores/revocations-redis.ts: two replicas' stores on one redis-server share revocations, announced on a
// channel; a replica started later loads them; a redis filled to its maxmemory by failed sign-ins still takes them.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { Redis } from "ioredis";
import { RedisServer } from "#harness/redis-server.ts";
import type { Stores } from "#server/stores/create-stores.ts";
import { keptLog, replicasOnOneRedis, testStores } from "#tests/support/stores.ts";
import { until } from "#tests/support/waiting.ts";

describe("two replicas on one redis", () => {
  const replicas = replicasOnOneRedis();

  it("a revocation on A is refused on B shortly after (pub/sub), with no Redis call in has()", async () => {
    const { a, b } = replicas;
    const sid = randomUUID();
    await a.revocations.revoke(sid);
    await until(() => b.revocations.has(sid), 1_000, "B to hear the revocation");
  });

  it("a replica started after the revocation refuses it too", async () => {
    const { b, open } = replicas;
    const sid = randomUUID();
    await b.revocations.revoke(sid);
    const c = await open();
    assert.equal(c.revocations.has(sid), true, "loaded at start");
  });
});

describe("two replicas on a redis filled to its maxmemory with failed names", () => {
  let server: RedisServer;
  let a: Stores;
  let b: Stores;
  let raw: Redis;
  const logA = keptLog();
  const logB = keptLog();
  before(async () => {
    server = await RedisServer.start(["--maxmemory", "3mb", "--maxmemory-policy", "noeviction"]);
    a = testStores(server.url, { keyPrefix: "full:", log: logA });
    b = testStores(server.url, { keyPrefix: "full:", log: logB });
    await Promise.all([a.ready(), b.ready()]);
    raw = new Redis(server.url);
  });
  after(async () => {
    raw.disconnect();
    await Promise.all([a.close(), b.close()]);
    await server.stop();
  });

  it("still shares a sign-out, a session and a person's mark; new counts are kept per replica; no outage is logged", async () => {
    // What anyone can make without a password: failed sign-ins under new names (the throttle's keys), until Redis
    // refuses to grow.
    let refused: string | undefined;
    for (let batch = 0; !refused; batch++) {
      assert.ok(batch < 400, "redis never filled");
      const pipeline = raw.pipeline();
      for (let index = 0; index < 500; index++)
        pipeline.set(`full:count:sign-in|person|client/acme/${randomUUID()}`, "1", "PX", 360_000);
      const answers = (await pipeline.exec()) ?? [];
      refused = answers.map(([error]) => error?.message).find((message) => message?.startsWith("OOM"));
    }
    // At the edge Redis takes one write and refuses the next as its buffers come and go: its budget is set just below
    // what it holds, so that every write that could grow it is refused from now on.
    const used = Number(/used_memory:(\d+)/.exec(await raw.info("memory"))?.[1]);
    await raw.config("SET", "maxmemory", String(used - 64 * 1024));
    assert.match(await raw.set("probe", "x").catch((error: Error) => error.message), /^OOM/);

    const sid = randomUUID();
    await b.revocations.revoke(sid);
    await until(() => a.revocations.has(sid), 2_000, "A to hear the sign-out made on B");

    const person = `client/acme/${randomUUID()}`;
    const began = Date.now();
    await a.sessions.add(person, { sid: "kept", began, seen: began, device: "Firefox on macOS", address: "192.0.2.1" });
    const listed = await b.sessions.list(person);
    assert.deepEqual(
      listed.sessions.map((session) => session.sid),
      ["kept"],
      "B lists the session A began",
    );

    assert.equal(await a.marks.mark(person, { before: began + 1, except: "asker" }), true, "the mark is shared");
    await until(() => b.marks.ends(person, "kept", began), 2_000, "B to hold the mark");

    const key = `sign-in|ip|${randomUUID()}`;
    assert.equal((await a.counters.hit(key, 60_000)).count, 1, "a new count is kept in the replica: not unlimited");
    assert.equal((await a.counters.hit(key, 60_000)).count, 2);
    for (const log of [logA, logB]) {
      assert.equal(log.events("redis-down"), 0, "a full redis is not an outage");
      assert.ok(log.lines.length < 10, `a handful of lines: ${log.lines.map((line) => line.message).join(" / ")}`);
    }
    assert.equal(logA.events("redis-full"), 1, "said once, when it started");
  });
});
