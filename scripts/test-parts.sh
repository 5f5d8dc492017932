#!/usr/bin/env bash
# Runs each npm script it is given, every one whatever those before it did, then says in one line which failed (and
# exits 1 if any did). Tests stretch their deadlines by TEST_TIME_FACTOR (tests/support/waiting.ts, `scaled`): unset,
# it is set here from the machine's load, one more for each full load of its cores, so a busy machine waits longer
# rather than failing (docs/decisions.md, "A suite that holds under load"). The load is what runs now: the processes
# running or ready to run (/proc/loadavg's fourth field, less this reader), the median of ten readings over a second.
# The load average would still count, for a minute, the install and the build CI ran just before, and stretch a
# quiet machine's waits threefold; where /proc is missing, it is what there is.
set -uo pipefail
if [ -z "${TEST_TIME_FACTOR:-}" ]; then
  TEST_TIME_FACTOR=$(node -e '
    const { readFileSync } = require("node:fs");
    const os = require("node:os");
    const pause = () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    let busy;
    try {
      const readings = [];
      for (let i = 0; i < 10; i++, pause()) readings.push(Number(readFileSync("/proc/loadavg", "utf8").split(" ")[3].split("/")[0]) - 1);
      busy = readings.sort((a, b) => a - b)[5];
    } catch {}
    // A /proc that reads no number (some sandboxes give 0/0) says nothing: the load average does.
    if (!Number.isFinite(busy) || busy < 0) busy = os.loadavg()[0];
    console.log(Math.max(1, 1 + Math.floor(busy / os.availableParallelism())));')
  export TEST_TIME_FACTOR
fi
echo "test-parts: $* (TEST_TIME_FACTOR=$TEST_TIME_FACTOR)" >&2
failed=()
for part in "$@"; do npm run --silent "$part" || failed+=("$part"); done
if [ ${#failed[@]} -eq 0 ]; then
  echo "test-parts: all passed: $*" >&2
  exit 0
fi
echo "test-parts: failed: ${failed[*]} (of $*)" >&2
exit 1
