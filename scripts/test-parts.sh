#!/usr/bin/env bash
# Runs each npm script it is given, every one whatever those before it did, then says in one line which failed (and
# exits 1 if any did). Tests stretch their deadlines by TEST_TIME_FACTOR (tests/support/waiting.ts, `scaled`): unset,
# it is set here from the machine's load, one more for each full load of its cores, so a busy machine waits longer
# rather than failing (docs/decisions.md, "A suite that holds under load").
set -uo pipefail
if [ -z "${TEST_TIME_FACTOR:-}" ]; then
  TEST_TIME_FACTOR=$(node -e 'const os = require("node:os"); console.log(1 + Math.floor(os.loadavg()[0] / os.availableParallelism()))')
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
