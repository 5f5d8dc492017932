// server/stores/person-marks-redis.ts: two replicas on one real redis-server share a person's mark at once; one made
// while Redis is stopped is held by the replica that made it and reaches the other when Redis returns (empty).
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { Redis } from "ioredis";
import { RedisServer } from "#harness/redis-server.ts";
import type { Stores } from "#server/stores/create-stores.ts";
import { RedisPersonMarks } from "#server/stores/person-marks-redis.ts";
import { redisKeys } from "#server/stores/redis-keys.ts";
import type { RedisLink } from "#server/stores/redis-link.ts";
import { testStores } from "#tests/support/stores.ts";
import { scaled, until } from "#tests/support/waiting.ts";

describe("person marks on two replicas", () => {
  let server: RedisServer;
  let a: Stores;
  let b: Stores;
  before(async () => {
    server = await RedisServer.start();
    a = testStores(server.url, { keyPrefix: "marks:" });
    b = testStores(server.url, { keyPrefix: "marks:" });
    await Promise.all([a.ready(), b.ready()]);
  });
  after(async () => {
    await Promise.all([a.close(), b.close()]);
    await server.stop();
  });

  it("a mark made on A ends the person's older sessions on B at once, and a replica started later loads it", async () => {
    const person = `client/acme/${randomUUID()}`;
    const now = Date.now();
    assert.equal(await a.marks.mark(person, { before: now, except: "asker" }), true);
    await until(() => b.marks.ends(person, "older", now - 1), 1_000, "B to hear the mark");
    assert.equal(b.marks.ends(person, "asker", now - 1), false);
    assert.equal(b.marks.ends(person, "newer", now), false);
    const c = testStores(server.url, { keyPrefix: "marks:" });
    try {
      await c.ready();
      await until(() => c.marks.ends(person, "older", now - 1), 2_000, "C to load the mark");
    } finally {
      await c.close();
    }
  });

  it("a reset's mark, which excepts no session, ends every older session on B and is loaded by a later replica", async () => {
    const person = `client/acme/${randomUUID()}`;
    const now = Date.now();
    assert.equal(await a.marks.mark(person, { before: now, except: "" }), true);
    await until(() => b.marks.ends(person, "older", now - 1), 1_000, "B to hear the mark");
    const c = testStores(server.url, { keyPrefix: "marks:" });
    try {
      await c.ready();
      await until(() => c.marks.ends(person, "any", now - 1), 2_000, "C to load the mark");
    } finally {
      await c.close();
    }
  });

  it("a mark made while Redis is stopped is on its way: held by A, and reaches B once Redis returns empty", async () => {
    const person = `client/acme/${randomUUID()}`;
    await server.stop();
    const down = async () => {
      const health = await a.health();
      return health.backend === "redis" && !health.up;
    };
    await until(down, 2_000, "A to see Redis gone");
    assert.equal(
      await a.marks.mark(person, { before: Date.now(), except: "asker" }),
      false,
      "not every replica has it",
    );
    assert.equal(a.marks.ends(person, "older", 1), true, "A ends the person's older sessions at once");
    assert.equal(b.marks.ends(person, "older", 1), false);
    await server.restart();
    await until(() => b.marks.ends(person, "older", 1), 8_000, "B to have the mark once Redis is back");
  });

  it("a mark Redis had is written back when Redis restarts empty, so a replica started afterwards still loads it", async () => {
    const person = `client/acme/${randomUUID()}`;
    assert.equal(await a.marks.mark(person, { before: Date.now(), except: "asker" }), true, "in Redis at once");
    await server.stop();
    await server.restart();
    const c = testStores(server.url, { keyPrefix: "marks:" });
    try {
      await c.ready();
      await until(() => c.marks.ends(person, "older", 1), 8_000, "a later replica to have the mark Redis had lost");
    } finally {
      await c.close();
    }
  });
});

describe("a replica started while marks are in Redis", () => {
  it("holds every mark once it is ready, before it serves any session", async () => {
    const server = await RedisServer.start();
    const raw = new Redis(server.url);
    try {
      const before = Date.now();
      const pipeline = raw.pipeline();
      for (let index = 0; index < 20_000; index++)
        pipeline.set(`fresh:ended-before:client/acme/p${index}`, `${before} asker`, "PX", 600_000);
      await pipeline.exec();
      const c = testStores(server.url, { keyPrefix: "fresh:" });
      try {
        await c.ready(scaled(10_000));
        let held = 0;
        for (let index = 0; index < 20_000; index++)
          if (c.marks.ends(`client/acme/p${index}`, "older", before - 1)) held++;
        assert.equal(held, 20_000, "every mark is loaded");
      } finally {
        await c.close();
      }
    } finally {
      raw.disconnect();
      await server.stop();
    }
  });
});

describe("a load whose answer has a hole", () => {
  it("is a failed load, tried again when Redis is back, never a load that skips the marks it could not read", async () => {
    const keys = redisKeys("holes:");
    const person = "client/acme/alice";
    const before = Date.now();
    let loads = 0;
    const failures: unknown[] = [];
    let up = () => {};
    // A link whose first load has one command timed out, as a busy Redis answers within a pipeline.
    const pipeline = () => {
      const commands = {
        length: 0,
        get: () => commands,
        pttl: () => commands,
        portalMark: () => commands,
        exec: async () => {
          loads++;
          const text: [Error | null, unknown] =
            loads === 1 ? [new Error("Command timed out"), null] : [null, `${before} asker`];
          return [text, [null, 60_000]];
        },
      };
      return commands;
    };
    const link = {
      commands: { scan: async () => ["0", [keys.mark(person)]], pipeline, info: async () => "run_id:one\r\n" },
      usable: true,
      now: Date.now,
      onMessage: () => {},
      onUp: (listener: () => void) => {
        up = listener;
      },
      failed: (error: unknown) => failures.push(error),
    } as unknown as RedisLink;
    const marks = new RedisPersonMarks(link, keys, 600_000);
    await marks.sync();
    assert.equal(failures.length, 1, "the load failed, and the link was told");
    assert.equal(marks.ends(person, "older", before - 1), false);
    up();
    await marks.sync();
    assert.equal(marks.ends(person, "older", before - 1), true, "the next load has the mark");
    assert.equal(failures.length, 1);
  });
});
