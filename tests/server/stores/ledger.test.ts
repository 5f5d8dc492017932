// server/stores/ledger.ts: the session ledger in this process's memory. A record reads back as written; an ending is
// set once and no later write undoes it; a record is kept until its birth, the sessions' lifetime and a linger have
// passed on the app's clock; a person's records are listed newest first; the byte bound drops the least recently used.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, it } from "node:test";
import { endedRecord, LINGER_MS, MemoryLedger, recordSize } from "#server/stores/ledger.ts";
import { testRecord } from "#tests/support/stores.ts";

const LIFETIME_MS = 60_000;
const person = () => `client/acme/${randomUUID()}`;
/** A time past the lifetime and the linger of a record born at `born`. */
const pastLinger = (born: number) => born + LIFETIME_MS + LINGER_MS + 1;

/** A ledger on a clock the test moves. */
function clocked(maxBytes?: number) {
  const clock = { time: 1_000_000 };
  const ledger = new MemoryLedger(LIFETIME_MS, () => clock.time, maxBytes);
  return { ledger, clock };
}

describe("the session ledger in memory", () => {
  it("reads a record back as written, and the latest write of it", () => {
    const { ledger, clock } = clocked();
    const record = testRecord(person(), clock.time);
    ledger.write("one", record);
    assert.deepEqual(ledger.read("one"), record);
    assert.equal(ledger.read("other"), undefined, "an id never written is unknown");
    const seen = { ...record, seen: clock.time + 5_000, previousPage: "/client/home" };
    ledger.write("one", seen);
    assert.deepEqual(ledger.read("one"), seen);
  });

  it("ends a record once: the first end answers true, every later one false, and no write undoes it", async () => {
    const { ledger, clock } = clocked();
    const record = testRecord(person(), clock.time, { timeZone: "Asia/Tokyo" });
    ledger.write("one", record);
    assert.equal(await ledger.end("one", { at: clock.time + 1, reason: "signed-out" }), true);
    assert.equal(await ledger.end("one", { at: clock.time + 2, reason: "ended-elsewhere" }), false, "ended already");
    ledger.write("one", { ...record, seen: clock.time + 3 }); // a request that read it before it ended answers late
    const ended = ledger.read("one");
    assert.deepEqual(ended?.ended, { at: clock.time + 1, reason: "signed-out" }, "the first ending stays");
    assert.deepEqual(ended, endedRecord(record, { at: clock.time + 1, reason: "signed-out" }));
    assert.equal(ended?.auth.token, "", "an ended record keeps no token");
    assert.equal(ended?.device, "Chrome on Windows", "it keeps where the session was signed in");
    assert.equal(ended?.timeZone, "Asia/Tokyo");
    assert.equal(await ledger.end("never-written", { at: clock.time, reason: "signed-out" }), false);
  });

  it("keeps a record until its birth, the lifetime and the linger have passed on the app's clock, however late it was written", () => {
    const { ledger, clock } = clocked();
    const born = clock.time;
    const record = testRecord(person(), born);
    ledger.write("one", record);
    clock.time = born + LIFETIME_MS - 1;
    ledger.write("one", { ...record, seen: clock.time }); // a later write does not stretch the lifetime
    assert.equal(ledger.leftOf("one"), LINGER_MS + 1);
    clock.time = born + LIFETIME_MS + LINGER_MS - 1;
    assert.equal(ledger.read("one")?.seen, born + LIFETIME_MS - 1, "still there, past the lifetime, in the linger");
    clock.time = pastLinger(born);
    assert.equal(ledger.read("one"), undefined, "gone once the linger is over");
    assert.equal(ledger.leftOf("one"), 0);
    ledger.hold("late", testRecord(person(), born)); // a record past its time is not kept at all
    assert.equal(ledger.read("late"), undefined);
  });

  it("keeps an ended record, ended, until the same time", async () => {
    const { ledger, clock } = clocked();
    const born = clock.time;
    ledger.write("one", testRecord(person(), born));
    clock.time += LIFETIME_MS;
    assert.equal(await ledger.end("one", { at: clock.time, reason: "lifetime" }), true);
    clock.time = born + LIFETIME_MS + LINGER_MS - 1;
    assert.equal(ledger.read("one")?.ended?.reason, "lifetime");
    clock.time = pastLinger(born);
    assert.equal(ledger.read("one"), undefined);
  });

  it("lists a person's records, live and ended, newest first, and no one else's", async () => {
    const { ledger, clock } = clocked();
    const [alice, bob] = [person(), person()];
    ledger.write("older", testRecord(alice, clock.time - 20));
    ledger.write("newest", testRecord(alice, clock.time));
    ledger.write("middle", testRecord(alice, clock.time - 10));
    ledger.write("bobs", testRecord(bob, clock.time));
    await ledger.end("middle", { at: clock.time, reason: "signed-out" });
    const listed = await ledger.of(alice);
    assert.equal(listed.complete, true);
    assert.deepEqual(
      listed.sessions.map(([id, record]) => [id, record.ended?.reason]),
      [
        ["newest", undefined],
        ["middle", "signed-out"],
        ["older", undefined],
      ],
    );
    assert.deepEqual(await ledger.of(person()), { sessions: [], complete: true });
    clock.time = pastLinger(clock.time - 10);
    assert.deepEqual(
      (await ledger.of(alice)).sessions.map(([id]) => id),
      ["newest"],
      "a record gone with its time is listed no more",
    );
  });

  it("keeps at most its bytes, a token counting its characters: the least recently used record goes first", async () => {
    const who = person();
    const records = ["a", "b", "c", "d"].map((id, index) => [id, testRecord(who, 1_000_000 + index)] as const);
    const size = recordSize(records[0]?.[1] ?? testRecord(who, 0));
    const { ledger } = clocked(3 * size);
    for (const [id, record] of records.slice(0, 3)) ledger.write(id, record);
    assert.equal(ledger.size, 3);
    assert.ok(ledger.read("a"), "read: now the most recently used");
    const [id, record] = records[3] ?? [];
    if (id && record) ledger.write(id, record);
    assert.equal(ledger.size, 3, "no more than its bytes");
    assert.equal(ledger.read("b"), undefined, "the least recently used went");
    assert.ok(ledger.read("a") && ledger.read("c") && ledger.read("d"));
    assert.deepEqual(
      (await ledger.of(who)).sessions.map(([listed]) => listed),
      ["d", "c", "a"],
      "and off the person's list",
    );
  });
});
