// The per-person list's contract, which the security activity and the trusted browsers are built on, run against
// both stores: in memory, and on a real redis-server.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { RedisServer } from "#harness/redis-server.ts";
import type { ListKind, PersonLists } from "#server/stores/person-lists.ts";
import { redisKeys } from "#server/stores/redis-keys.ts";
import { testPersonLists } from "#tests/support/stores.ts";
import { until } from "#tests/support/waiting.ts";

type Thing = { at: number; label: string };

const PER_PERSON = 3;
const KEEP_MS = 600;
const things: ListKind<Thing> = {
  name: "things",
  perPerson: PER_PERSON,
  peopleMax: 1_000,
  keepMs: KEEP_MS,
  timeOf: (thing) => thing.at,
  parse: (stored) => {
    const { at, label } = (stored ?? {}) as Partial<Thing>;
    return typeof at === "number" && typeof label === "string" ? { at, label } : undefined;
  },
};
const person = () => `client/acme/${randomUUID()}`;
const labels = async (lists: PersonLists<Thing>, who: string) =>
  (await lists.list(who)).items.map(({ item }) => item.label);

let server: RedisServer;
describe("server/stores/person-lists", () => {
  before(async () => {
    server = await RedisServer.start();
  });
  after(() => server.stop());

  for (const backend of ["memory", "redis"] as const) {
    describe(`${backend} per-person lists`, () => {
      const prefix = `lists-${randomUUID()}:`;
      let store: ReturnType<typeof testPersonLists<Thing>>;
      let lists: PersonLists<Thing>;
      before(async () => {
        store = testPersonLists(things, backend === "redis" ? server.url : undefined, prefix);
        lists = store.lists;
        await store.ready();
      });
      after(() => store.close());

      it("lists a person's items newest first, each with its id and what it holds", async () => {
        const who = person();
        const now = Date.now();
        assert.deepEqual(await lists.add(who, "a", { at: now - 20, label: "older" }), []);
        assert.deepEqual(await lists.add(who, "b", { at: now, label: "newer" }), []);
        assert.deepEqual(await lists.list(who), {
          items: [
            { id: "b", item: { at: now, label: "newer" } },
            { id: "a", item: { at: now - 20, label: "older" } },
          ],
          complete: true,
          trimmed: false,
        });
      });

      it("shows a person only their own items, and nothing to a person without a list", async () => {
        const [mine, theirs] = [person(), person()];
        await lists.add(mine, "m", { at: Date.now(), label: "mine" });
        await lists.add(theirs, "t", { at: Date.now(), label: "theirs" });
        assert.deepEqual(await labels(lists, mine), ["mine"]);
        assert.deepEqual(await lists.list(person()), { items: [], complete: true, trimmed: false });
      });

      it("lists items of the same time by id, the greater first; an id added again replaces its item", async () => {
        const who = person();
        const now = Date.now();
        await lists.add(who, "0001", { at: now, label: "first" });
        await lists.add(who, "0002", { at: now, label: "second" });
        assert.deepEqual(await labels(lists, who), ["second", "first"]);
        await lists.add(who, "0001", { at: now + 1, label: "first again" });
        assert.deepEqual(await labels(lists, who), ["first again", "second"]);
      });

      it(`keeps at most ${PER_PERSON} items a person: the oldest go, are answered oldest first, and the list says so`, async () => {
        const who = person();
        const now = Date.now();
        const dropped: string[] = [];
        for (let index = 0; index < PER_PERSON + 2; index += 1)
          dropped.push(...(await lists.add(who, `id-${index}`, { at: now + index, label: `t${index}` })));
        assert.deepEqual(dropped, ["id-0", "id-1"]);
        const list = await lists.list(who);
        assert.deepEqual(
          list.items.map(({ id }) => id),
          ["id-4", "id-3", "id-2"],
        );
        assert.equal(list.trimmed, true);
      });

      it("forgets a removed item, and takes a removal of one never listed", async () => {
        const who = person();
        const now = Date.now();
        await lists.add(who, "kept", { at: now - 10, label: "kept" });
        await lists.add(who, "gone", { at: now - 5, label: "gone" });
        await lists.remove(who, "gone");
        await lists.remove(who, "never");
        const { items } = await lists.list(who);
        assert.deepEqual(items, [{ id: "kept", item: { at: now - 10, label: "kept" } }]);
      });

      it("adds an item asked for only if listed only to a person with a list already", async () => {
        const [known, stranger] = [person(), person()];
        await lists.add(known, "1", { at: Date.now(), label: "first" });
        await lists.add(known, "2", { at: Date.now() + 1, label: "second" }, { onlyIfListed: true });
        assert.deepEqual(await lists.add(stranger, "1", { at: Date.now(), label: "x" }, { onlyIfListed: true }), []);
        assert.deepEqual(await labels(lists, known), ["second", "first"]);
        assert.deepEqual(await labels(lists, stranger), []);
      });

      it("forgets an item once its time is older than the kind keeps", async () => {
        const who = person();
        const now = Date.now();
        await lists.add(who, "old", { at: now - KEEP_MS - 1, label: "old" });
        await lists.add(who, "new", { at: now, label: "new" });
        assert.deepEqual(await labels(lists, who), ["new"], "an item older than the kind keeps is never listed");
        await until(async () => (await lists.list(who)).items.length === 0, 3_000, "the item to expire");
      });
    });
  }

  describe("redis per-person lists", () => {
    it("leave out an item Redis gives back in another shape", async () => {
      const prefix = `shape-${randomUUID()}:`;
      const store = testPersonLists(things, server.url, prefix);
      try {
        await store.ready();
        const who = person();
        await store.lists.add(who, "good", { at: Date.now(), label: "good" });
        const { entries } = redisKeys(prefix).list(things.name, who);
        await store.link?.commands.hset(entries, "bad", JSON.stringify({ at: "yesterday" }), "worse", "{not json");
        assert.deepEqual(await labels(store.lists, who), ["good"]);
      } finally {
        await store.close();
      }
    });

    it("with Redis down, list what this replica wrote, saying it may be incomplete", async () => {
      const redis = await RedisServer.start();
      const store = testPersonLists(things, redis.url, `down-${randomUUID()}:`);
      try {
        await store.ready();
        const who = person();
        const now = Date.now();
        await store.lists.add(who, "here", { at: now, label: "written here" });
        await redis.stop();
        assert.deepEqual(await store.lists.list(who), {
          items: [{ id: "here", item: { at: now, label: "written here" } }],
          complete: false,
          trimmed: false,
        });
      } finally {
        await store.close();
        await redis.stop();
      }
    });

    it("with Redis down, the bound waits: nothing is answered as pushed out of this replica's copy", async () => {
      const redis = await RedisServer.start();
      const store = testPersonLists(things, redis.url, `bound-${randomUUID()}:`);
      try {
        await store.ready();
        const who = person();
        const now = Date.now();
        await store.lists.add(who, "first", { at: now, label: "live elsewhere" });
        await redis.stop();
        const dropped: string[] = [];
        for (let index = 1; index <= things.perPerson + 5; index++)
          dropped.push(...(await store.lists.add(who, `later-${index}`, { at: now + index, label: "later" })));
        assert.deepEqual(dropped, [], "no item ended by a bound applied to a copy");
        assert.equal((await store.lists.list(who)).trimmed, false);
      } finally {
        await store.close();
        await redis.stop();
      }
    });
  });
});
