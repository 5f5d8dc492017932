// server/stores/redis-sync.ts: a store's sync writes what waited, and everything only when Redis restarted since the
// last pass; a failed pass tells the link and is not ready; a link that comes up syncs again.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { RedisLink } from "#server/stores/redis-link.ts";
import { RedisSync } from "#server/stores/redis-sync.ts";

/** A link whose server has run id `run.id`, and whose `onUp` listener the test calls. */
function fakeLink(run: { id: string }) {
  const failures: unknown[] = [];
  let up = () => {};
  const link = {
    commands: { info: async () => `# Server\r\nrun_id:${run.id}\r\n` },
    failed: (error: unknown) => failures.push(error),
    onUp: (listener: () => void) => {
      up = listener;
    },
  } as unknown as RedisLink;
  return { link, failures, up: () => up() };
}

describe("a store's sync with Redis", () => {
  it("writes everything held only when Redis's run id changed since the last pass", async () => {
    const run = { id: "first" };
    const { link } = fakeLink(run);
    const shared: boolean[] = [];
    const sync = new RedisSync(link, { share: async (restarted) => void shared.push(restarted), load: async () => {} });
    await sync.run();
    await sync.run();
    run.id = "second";
    await sync.run();
    assert.deepEqual(shared, [false, false, true]);
  });

  it("is ready once a pass has loaded; a failed pass tells the link, and the link's coming up syncs again", async () => {
    const { link, failures, up } = fakeLink({ id: "one" });
    let fail = true;
    let loads = 0;
    const sync = new RedisSync(link, {
      share: async () => {},
      load: async () => {
        if (fail) throw new Error("Command timed out");
        loads++;
      },
    });
    await sync.run();
    assert.equal(failures.length, 1, "the link was told");
    let ready = false;
    void sync.ready(60_000).then(() => {
      ready = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(ready, false, "nothing loaded yet");
    fail = false;
    up();
    await sync.settled();
    await sync.ready(60_000);
    assert.equal(loads, 1);
  });
});
