#!/usr/bin/env bash
# Builds the production tree with the Dockerfile's own steps (no Docker engine here) in a temporary folder,
# starts it with NODE_ENV=production, checks health, readiness and a page, then stops it with SIGTERM.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
pid=""
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

echo "production-tree: dependencies and build (stages deps, build, prod-deps)"
mkdir -p "$work/build" "$work/app"
# COPY . . honours .dockerignore: take the tracked files only.
(cd "$src" && git ls-files -z | xargs -0 tar -cf - --no-recursion) | tar -xf - -C "$work/build"
(cd "$work/build" && npm install --no-audit --no-fund --prefer-offline >/dev/null && npm run build >/dev/null && npm prune --omit=dev --no-audit --no-fund >/dev/null)

echo "production-tree: runtime stage"
for part in node_modules dist package.json tsconfig.json openapi server web; do cp -r "$work/build/$part" "$work/app/"; done
mkdir -p "$work/app/data"
port=$(node -e "const s=require('net').createServer().listen(0,()=>{console.log(s.address().port);s.close()})")
key=$(node -e "console.log(require('crypto').randomBytes(32).toString('hex'))")
metrics=$(node -e "console.log(require('crypto').randomBytes(16).toString('hex'))")
(cd "$work/app" && NODE_ENV=production SANDBOX=true HOST=127.0.0.1 PORT="$port" SESSION_KEY="$key" METRICS_TOKEN="$metrics" \
  exec node --import tsx server/main.ts >"$work/portal.log" 2>&1) &
pid=$!

base="http://127.0.0.1:$port"
for _ in $(seq 1 60); do curl -fs "$base/healthz" >/dev/null 2>&1 && break; sleep 0.5; done
check() { local code; code=$(curl -s -o /dev/null -w '%{http_code}' "${@:3}" "$base$1"); [ "$code" = "$2" ] || { echo "production-tree: $1 answered $code, expected $2"; cat "$work/portal.log"; exit 1; }; echo "production-tree: $1 → $code"; }
check /healthz 200
check /readyz 200
check / 200
check /client/home 302
check /reference 302 # the API reference is development only; swagger-ui-dist is pruned here
check /metrics 401
check /metrics 200 -H "authorization: Bearer $metrics"
# Read the whole answer first: `curl | grep -q` under pipefail fails whenever grep stops reading before curl ends.
exposition=$(curl -fs -H "authorization: Bearer $metrics" "$base/metrics")
grep -q '^portal_http_request_duration_seconds_count{method="GET",route="/healthz",status="200"}' <<<"$exposition" ||
  { echo "production-tree: /metrics does not count the requests"; grep '^portal_http_request' <<<"$exposition"; exit 1; }

kill -TERM "$pid"
status=0; wait "$pid" || status=$?
pid=""
[ "$status" = "0" ] || { echo "production-tree: exit status $status after SIGTERM"; cat "$work/portal.log"; exit 1; }
grep -q '"shutting down"' "$work/portal.log" || { echo "production-tree: no graceful shutdown logged"; exit 1; }
echo "production-tree: started, answered and stopped cleanly"
