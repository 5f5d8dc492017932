#!/usr/bin/env bash
# Runs the test files it is given in two processes side by side, every other file in each, all of a half in one
# process (--test-isolation=none): both cores work, and Node and tsx start twice rather than once a file. So a file
# keeps its per-test hooks in a describe (at its top they would run for every file of its half) and undoes what it
# sets for the process (docs/decisions.md, "The suite's time"). The first half reports as it runs, the second once it
# ends; the last line says which failed (and it exits 1 if any did).
set -uo pipefail
first=()
second=()
index=0
for file in "$@"; do
  if [ $((index % 2)) -eq 0 ]; then first+=("$file"); else second+=("$file"); fi
  index=$((index + 1))
done
[ ${#second[@]} -gt 0 ] || { echo "test-halves: give two test files or more" >&2; exit 2; }
report=$(mktemp)
# Node 22 knows the flag by its earlier name.
isolation=--test-isolation=none
[ "$(node -p 'process.versions.node.split(".")[0]')" != 22 ] || isolation=--experimental-test-isolation=none
run() { node --import tsx --test "$isolation" "$@"; }
run "${second[@]}" >"$report" 2>&1 &
other=$!
trap 'kill "$other" 2>/dev/null; rm -f "$report"' EXIT
run "${first[@]}"
first_status=$?
wait "$other"
second_status=$?
cat "$report"
failed=()
[ "$first_status" -eq 0 ] || failed+=("first")
[ "$second_status" -eq 0 ] || failed+=("second")
if [ ${#failed[@]} -eq 0 ]; then
  echo "test-halves: both halves passed (${#first[@]} and ${#second[@]} files)" >&2
  exit 0
fi
echo "test-halves: failed: ${failed[*]} (halves of ${#first[@]} and ${#second[@]} files)" >&2
exit 1
