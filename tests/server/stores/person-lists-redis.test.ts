// server/stores/person-lists-redis.ts on two replicas and one real redis-server: a full Redis still takes a removal,
// and what a replica listed or removed while Redis was away reaches Redis when it returns.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { Redis } from "ioredis";
import { RedisServer } from "#harness/redis-server.ts";
import type { ListKind } from "#server/stores/person-lists.ts";
import { testPersonLists } from "#tests/support/stores.ts";
import { until } from "#tests/support/waiting.ts";

type Thing = { at: number; device: string };

const PER_PERSON = 20;
const things: ListKind<Thing> = {
  name: "things",
  perPerson: PER_PERSON,
  peopleMax: 1_000,
  keepMs: 600_000,
  timeOf: (thing) => thing.at,
  parse: (stored) => {
    const { at, device } = (stored ?? {}) as Partial<Thing>;
    return typeof at === "number" && typeof device === "string" ? { at, device } : undefined;
  },
};
const thing = (at: number): Thing => ({ at, device: "Chrome on Windows" });
const person = () => `client/acme/${randomUUID()}`;

type Replica = ReturnType<typeof testPersonLists<Thing>> & { states: boolean[] };

describe("redis per-person lists on two replicas", () => {
  let server: RedisServer;
  let raw: Redis;
  let a: Replica;
  let b: Replica;
  const prefix = `lists-${randomUUID()}:`;
  /** A replica's lists, its link's changes kept in `states`. */
  const open = async (): Promise<Replica> => {
    const states: boolean[] = [];
    const replica = { ...testPersonLists(things, server.url, prefix, { onState: (up) => states.push(up) }), states };
    await replica.ready();
    return replica;
  };
  const usable = (replica: Replica) => replica.link?.usable === true;
  /** Redis hangs: each replica's next read times out, and it sees Redis away. */
  const away = async (...replicas: Replica[]) => {
    for (const replica of replicas) {
      await replica.lists.list(person());
      await until(() => !usable(replica), 2_000, "the replica to see Redis away");
    }
  };
  const listed = (who: string) => raw.zcard(`${prefix}${things.name}:${who}:order`);
  /** A person with PER_PERSON items listed by `replica`, the oldest first: their ids. */
  const full = async (replica: Replica, who: string) => {
    const start = Date.now() - 60_000;
    const all = Array.from({ length: PER_PERSON }, (_, index) => [randomUUID(), thing(start + index)] as const);
    for (const [id, item] of all) assert.deepEqual(await replica.lists.add(who, id, item), []);
    return all.map(([id]) => id);
  };

  before(async () => {
    server = await RedisServer.start();
    raw = new Redis(server.url);
    a = await open();
    b = await open();
  });
  after(async () => {
    raw.disconnect();
    await Promise.all([a, b].map((replica) => replica.close()));
    await server.stop();
  });

  it("a full Redis still takes a removal, and is no outage", async () => {
    const who = person();
    const now = Date.now();
    const [older, newer] = [randomUUID(), randomUUID()];
    await a.lists.add(who, older, thing(now - 2));
    await a.lists.add(who, newer, thing(now - 1));
    await server.config("maxmemory", "1"); // below what it holds: every write that could grow it is refused
    try {
      await b.lists.remove(who, newer);
      assert.equal(await listed(who), 1, "the removal reached Redis");
      assert.ok(usable(b), "the link stays up");
      assert.deepEqual(b.states, [true], "no outage");
    } finally {
      await server.config("maxmemory", "0");
    }
  });

  it("what a replica listed or removed while Redis was away reaches Redis when it returns", async () => {
    const who = person();
    const [kept, ...removed] = await full(a, who);
    server.freeze();
    try {
      await away(a, b);
      const during = randomUUID();
      for (const id of removed) await b.lists.remove(who, id); // taken off on B
      await b.lists.add(who, during, thing(Date.now())); // added on B
      server.thaw();
      await until(() => usable(a) && usable(b), 5_000, "both links back");
      await until(async () => (await listed(who)) === 2, 3_000, "the outage's additions and removals in Redis");
      const list = await a.lists.list(who);
      assert.equal(list.complete, true);
      assert.deepEqual(
        list.items.map(({ id }) => id),
        [during, kept],
        "A lists the item added on B during the outage",
      );
      assert.deepEqual(await a.lists.add(who, randomUUID(), thing(Date.now())), [], "the bound ends nobody");
    } finally {
      server.thaw();
    }
  });
});
