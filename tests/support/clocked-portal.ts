// The portal the idle-time tests share: injected (not listening), with a 30-minute idle limit, on a clock each test
// moves on. Started before the file's tests and closed after them.
import { after, before } from "node:test";
import { type RunningPortal, startPortalInProcess } from "#tests/support/portal.ts";

export const MINUTE = 60_000;
export const IDLE_MINUTES = 30;

export type ClockedPortal = {
  /** The portal's clock, in ms: move it on (`clocked.now += 25 * MINUTE`) to let time pass. */
  now: number;
  readonly portal: RunningPortal;
};

/** Called at the top of a test file: the portal starts in the file's `before` and closes in its `after`. */
export function clockedPortal(): ClockedPortal {
  let running: RunningPortal | undefined;
  const clocked: ClockedPortal = {
    now: Date.now(),
    get portal(): RunningPortal {
      if (!running) throw new Error("the clocked portal is started before the file's tests");
      return running;
    },
  };
  before(async () => {
    const env = { SESSION_IDLE_MINUTES: String(IDLE_MINUTES) };
    running = await startPortalInProcess({ env, now: () => clocked.now, listen: false });
  });
  after(() => running?.close());
  return clocked;
}
