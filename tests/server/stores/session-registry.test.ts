// The session registry's contract, run against both stores: in memory, and on a real redis-server.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { RedisServer } from "#harness/redis-server.ts";
import type { Stores } from "#server/stores/create-stores.ts";
import { SESSIONS_PER_PERSON, type SessionEntry } from "#server/stores/session-registry.ts";
import { testStores } from "#tests/support/stores.ts";
import { until } from "#tests/support/waiting.ts";

let server: RedisServer;
before(async () => {
  server = await RedisServer.start();
});
after(() => server.stop());

const entry = (began: number, extra: Partial<SessionEntry> = {}): SessionEntry => ({
  sid: randomUUID(),
  began,
  seen: began,
  device: "Chrome on Windows",
  address: "203.0.113.9",
  ...extra,
});

for (const backend of ["memory", "redis"] as const) {
  describe(`${backend} session registry`, () => {
    let stores: Stores;
    before(async () => {
      const url = backend === "redis" ? server.url : undefined;
      stores = testStores(url, { sessionMaxMs: 600, activityMs: 600, keyPrefix: `registry-${randomUUID()}:` });
      await stores.ready();
    });
    after(() => stores.close());

    it("lists a person's sessions newest first, with what each was added with", async () => {
      const person = `client/acme/${randomUUID()}`;
      const now = Date.now();
      const older = entry(now - 100, { device: "Firefox on Linux", address: "198.51.100.7" });
      const newer = entry(now);
      assert.deepEqual(await stores.sessions.add(person, older), []);
      assert.deepEqual(await stores.sessions.add(person, newer), []);
      const list = await stores.sessions.list(person);
      assert.deepEqual(list, { sessions: [newer, older], complete: true, trimmed: false });
    });

    it("shows a person only their own sessions", async () => {
      const alice = `client/acme/alice-${randomUUID()}`;
      const bob = `client/acme/bob-${randomUUID()}`;
      const mine = entry(Date.now());
      await stores.sessions.add(alice, mine);
      await stores.sessions.add(bob, entry(Date.now()));
      assert.deepEqual(
        (await stores.sessions.list(alice)).sessions.map(({ sid }) => sid),
        [mine.sid],
      );
      assert.deepEqual((await stores.sessions.list(`client/acme/${randomUUID()}`)).sessions, []);
    });

    it("writes last seen only for a listed session, and forgets a removed one", async () => {
      const person = `vendor//${randomUUID()}`;
      const now = Date.now();
      const kept = entry(now - 10);
      const gone = entry(now - 5);
      await stores.sessions.add(person, kept);
      await stores.sessions.add(person, gone);
      await stores.sessions.seen(person, kept.sid, now + 1);
      await stores.sessions.remove(person, gone.sid);
      await stores.sessions.seen(person, gone.sid, now + 2);
      await stores.sessions.seen(person, randomUUID(), now + 3);
      const { sessions } = await stores.sessions.list(person);
      assert.deepEqual(sessions, [{ ...kept, seen: now + 1 }]);
    });

    it(`keeps at most ${SESSIONS_PER_PERSON} sessions a person: the oldest go, are answered, and the list says so`, async () => {
      const person = `client/acme/${randomUUID()}`;
      const now = Date.now();
      const all = Array.from({ length: SESSIONS_PER_PERSON + 2 }, (_, index) => entry(now - 100 + index));
      const dropped: string[] = [];
      for (const session of all) dropped.push(...(await stores.sessions.add(person, session)));
      assert.deepEqual(dropped, [all[0]?.sid, all[1]?.sid]);
      const list = await stores.sessions.list(person);
      assert.equal(list.sessions.length, SESSIONS_PER_PERSON);
      assert.equal(list.trimmed, true);
      assert.deepEqual(
        list.sessions.map(({ sid }) => sid),
        all
          .slice(2)
          .reverse()
          .map(({ sid }) => sid),
      );
    });

    it("forgets a session once its absolute lifetime has passed", async () => {
      const person = `client/acme/${randomUUID()}`;
      await stores.sessions.add(person, entry(Date.now()));
      assert.equal((await stores.sessions.list(person)).sessions.length, 1);
      await until(async () => (await stores.sessions.list(person)).sessions.length === 0, 3_000, "the entry to expire");
    });
  });
}

describe("redis session registry with Redis down", () => {
  it("lists what this replica wrote, saying it may be incomplete", async () => {
    const redis = await RedisServer.start();
    const stores = testStores(redis.url, { keyPrefix: `down-${randomUUID()}:` });
    try {
      await stores.ready();
      const person = `client/acme/${randomUUID()}`;
      const session = entry(Date.now());
      await stores.sessions.add(person, session);
      await stores.activity.record(person, { event: "sign-out", at: Date.now(), device: "d", address: "a" });
      await redis.stop();
      const list = await stores.sessions.list(person);
      assert.deepEqual(list, { sessions: [session], complete: false, trimmed: false });
      const activity = await stores.activity.recent(person);
      assert.equal(activity.complete, false);
      assert.equal(activity.events[0]?.event, "sign-out");
    } finally {
      await stores.close();
      await redis.stop();
    }
  });
});
