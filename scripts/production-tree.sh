#!/usr/bin/env bash
# Builds the production tree with the Dockerfile's own steps (no Docker engine here) in a temporary folder and starts
# its compiled JavaScript with NODE_ENV=production: on the sandbox by its opt-in, in front of an upstream (without
# loading the sandbox), and once with neither (which must refuse); checks health, readiness and pages, stops with SIGTERM.
# It reuses what CI installed where that proves the same: the lockfile's engines are checked by npm without a second
# full install, the build runs on the checkout's node_modules, and only the production dependencies are installed.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
pids=()
collector=""
# Every process the check started ends with it: the portals, and the collector (kept apart, as the portals' list is
# emptied once they have stopped on their own).
cleanup() {
  for p in "${pids[@]}" $collector; do kill "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

echo "production-tree: dependencies and build (stages deps, build, prod-deps)"
mkdir -p "$work/build" "$work/app"
# COPY . . honours .dockerignore: take the tracked files only.
(cd "$src" && git ls-files -z | xargs -0 tar -cf - --no-recursion) | tar -xf - -C "$work/build"
# The deps stage's `npm ci` checks every package of the lockfile against this Node; its dry run is that same check
# (npm's ideal tree, dev packages included) without installing the tree a second time.
(cd "$work/build" && npm ci --dry-run --no-audit --no-fund --prefer-offline >"$work/install.log" 2>&1) ||
  { cat "$work/install.log"; exit 1; }
if grep -q EBADENGINE "$work/install.log"; then
  echo "production-tree: npm ci warns of engines:"; grep -A3 EBADENGINE "$work/install.log"; exit 1
fi
echo "production-tree: npm ci printed no engine warning"
# The build stage: the tracked files, built with the tree CI installed from the same lockfile.
ln -s "$src/node_modules" "$work/build/node_modules"
(cd "$work/build" && npm run build >/dev/null)
# The prod-deps stage: `npm ci --omit=dev` installs the same packages as `npm ci` then `npm prune --omit=dev`.
cp "$work/build/package.json" "$work/build/package-lock.json" "$work/app/"
(cd "$work/app" && npm ci --omit=dev --no-audit --no-fund --prefer-offline >"$work/prod-install.log" 2>&1) ||
  { cat "$work/prod-install.log"; exit 1; }
rm "$work/app/package-lock.json" # the runtime stage copies package.json alone beside the tree

echo "production-tree: runtime stage"
cp -r "$work/build/dist" "$work/app/"
mkdir -p "$work/app/data"
[ ! -e "$work/app/node_modules/tsx" ] || { echo "production-tree: tsx is in the production tree"; exit 1; }
key=$(node -e "console.log(require('crypto').randomBytes(32).toString('hex'))")
metrics=$(node -e "console.log(require('crypto').randomBytes(16).toString('hex'))")
free_port() { node -e "const s=require('net').createServer().listen(0,()=>{console.log(s.address().port);s.close()})"; }
# Instrumentation of this check only: at exit, the sandbox's modules the process loaded (its app, dist/sandbox/app.js,
# and Node's node:sqlite, which only the sandbox imports), and (in .otel) the files of OpenTelemetry's SDK and instrumentations (its no-op API is
# prom-client's own dependency, loaded with it).
cat >"$work/loaded.mjs" <<'HOOK'
import { writeFileSync } from "node:fs";
import { createRequire, registerHooks } from "node:module";
const { cache } = createRequire(import.meta.url);
const resolved = new Set();
registerHooks({
  resolve(specifier, context, next) {
    const result = next(specifier, context);
    resolved.add(result.url);
    return result;
  },
});
const loaded = (pattern) => [...resolved, ...Object.keys(cache)].filter((file) => pattern.test(file)).join("\n");
process.on("exit", () => {
  writeFileSync(process.env.LOADED_REPORT, loaded(/^node:sqlite$|\/dist\/sandbox\/app\.js$/));
  writeFileSync(`${process.env.LOADED_REPORT}.otel`, loaded(/\/node_modules\/(@opentelemetry\/(?!api\/)|@fastify\/otel\/)/));
});
HOOK
# An OTLP/HTTP collector for the traced start: it writes each export's path and body to collector.log.
collector_port=$(free_port)
node -e "require('http').createServer((q,s)=>{let b='';q.on('data',(c)=>b+=c).on('end',()=>{require('fs').appendFileSync(process.argv[1],q.url+' '+b+'\n');s.writeHead(200,{'content-type':'application/json'}).end('{}')})}).listen(+process.argv[2],'127.0.0.1')" \
  "$work/collector.log" "$collector_port" &
collector=$!

# start NAME PORT ENV...: the Dockerfile's CMD, with the environment given; its log in $work/NAME.log.
start() {
  local name=$1 port=$2; shift 2
  (cd "$work/app" && exec env NODE_ENV=production HOST=127.0.0.1 PORT="$port" SESSION_KEY="$key" \
    LOADED_REPORT="$work/$name.loaded" "$@" node --import "$work/loaded.mjs" --enable-source-maps dist/sandbox/launch.js \
    >"$work/$name.log" 2>&1) &
  pids+=($!)
  for _ in $(seq 1 60); do curl -fs "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && return; sleep 0.5; done
  echo "production-tree: $name did not start"; cat "$work/$name.log"; exit 1
}
# check BASE PATH STATUS [curl options]
check() {
  local code; code=$(curl -s -o /dev/null -w '%{http_code}' "${@:4}" "$1$2")
  [ "$code" = "$3" ] || { echo "production-tree: $2 answered $code, expected $3"; cat "$work"/*.log; exit 1; }
  echo "production-tree: $2 → $code"
}
# stop NAME PID: SIGTERM, exit status 0, a graceful shutdown logged.
stop() {
  local status=0
  kill -TERM "$2"; wait "$2" || status=$?
  [ "$status" = "0" ] || { echo "production-tree: $1 exited $status after SIGTERM"; cat "$work/$1.log"; exit 1; }
  grep -q '"shutting down"' "$work/$1.log" || { echo "production-tree: $1 logged no graceful shutdown"; exit 1; }
}

echo "production-tree: with neither UPSTREAM_URL nor SANDBOX, the start refuses"
status=0
(cd "$work/app" && NODE_ENV=production SESSION_KEY="$key" PORT="$(free_port)" node dist/sandbox/launch.js >"$work/refused.log" 2>&1) || status=$?
[ "$status" = "1" ] && grep -q "UPSTREAM_URL: required in production" "$work/refused.log" ||
  { echo "production-tree: a production start without UPSTREAM_URL did not refuse (status $status)"; cat "$work/refused.log"; exit 1; }
echo "production-tree: refused, naming UPSTREAM_URL"

echo "production-tree: SANDBOX=true"
port=$(free_port)
start sandbox "$port" SANDBOX=true METRICS_TOKEN="$metrics" OTEL_EXPORTER_OTLP_ENDPOINT="http://127.0.0.1:$collector_port"
sandbox_pid=${pids[-1]}
base="http://127.0.0.1:$port"
check "$base" /healthz 200
check "$base" /readyz 200
check "$base" / 200
check "$base" /client/home 302
check "$base" /reference 302 # the API reference is development only; its packages are pruned here
check "$base" /metrics 401
check "$base" /metrics 200 -H "authorization: Bearer $metrics"
# Read the whole answer first: `curl | grep -q` under pipefail fails whenever grep stops reading before curl ends.
exposition=$(curl -fs -H "authorization: Bearer $metrics" "$base/metrics")
grep -q '^portal_http_request_duration_seconds_count{method="GET",route="/healthz",status="200"}' <<<"$exposition" ||
  { echo "production-tree: /metrics does not count the requests"; grep '^portal_http_request' <<<"$exposition"; exit 1; }
check "$base" /sandbox/mail 200
sandbox_url=$(grep -o '"sandbox":"http://127.0.0.1:[0-9]*"' "$work/sandbox.log" | head -1 | cut -d'"' -f4)
[ -n "$sandbox_url" ] || { echo "production-tree: the sandbox's address is not logged"; cat "$work/sandbox.log"; exit 1; }

echo "production-tree: UPSTREAM_URL set (the first start's sandbox as the upstream)"
port=$(free_port)
start upstream "$port" UPSTREAM_URL="$sandbox_url"
upstream_pid=${pids[-1]}
base="http://127.0.0.1:$port"
check "$base" /healthz 200
check "$base" /readyz 200
check "$base" / 200
check "$base" /sandbox/mail 302 # no sandbox routes in front of a real upstream

stop upstream "$upstream_pid"
stop sandbox "$sandbox_pid"
pids=()
grep -q '/dist/sandbox/app.js$' "$work/sandbox.loaded" && grep -q '^node:sqlite$' "$work/sandbox.loaded" ||
  { echo "production-tree: the check cannot see the sandbox's app and node:sqlite load"; cat "$work/sandbox.loaded"; exit 1; }
[ ! -s "$work/upstream.loaded" ] ||
  { echo "production-tree: a start with UPSTREAM_URL loaded the sandbox:"; cat "$work/upstream.loaded"; exit 1; }
echo "production-tree: with UPSTREAM_URL set, the sandbox's app (and node:sqlite) is never loaded"
grep -q '^/v1/traces .*"traceId"' "$work/collector.log" 2>/dev/null ||
  { echo "production-tree: the start with OTEL_EXPORTER_OTLP_ENDPOINT sent no trace"; cat "$work/sandbox.log"; exit 1; }
[ ! -s "$work/upstream.loaded.otel" ] ||
  { echo "production-tree: a start without OTEL_EXPORTER_OTLP_ENDPOINT loaded OpenTelemetry's SDK:"; cat "$work/upstream.loaded.otel"; exit 1; }
[ -s "$work/sandbox.loaded.otel" ] || { echo "production-tree: the check cannot see OpenTelemetry load"; exit 1; }
echo "production-tree: traces reach the collector when configured; unset, no OpenTelemetry SDK is loaded"
echo "production-tree: started, answered and stopped cleanly"
