#!/usr/bin/env bash
# Runs its arguments on a Node that can run the portal and its sandbox (22.13 or later, for node:sqlite): the machine's
# own when it is new enough, else Node 24 LTS (or NODE_LTS=22) from the npm registry's `node` package, kept in a cache
# outside the checkout. It says so in one line, and puts that Node first on PATH, so the npm and node calls of what it
# runs use it too (docs/decisions.md, "Runtime and install").
set -euo pipefail
want=${NODE_LTS:-}
case "$want" in "" | 22 | 24) ;; *) echo "node-lts: NODE_LTS is 22 or 24, not '$want'" >&2; exit 2 ;; esac

# fits NODE: that Node can run the portal, and is of the line NODE_LTS asks for when it asks for one.
fits() {
  "$1" -e '
    const [major, minor] = process.versions.node.split(".").map(Number);
    const want = process.argv[1];
    process.exit((major > 22 || (major === 22 && minor >= 13)) && (want === "" || String(major) === want) ? 0 : 1);
  ' "$want" 2>/dev/null
}

if command -v node >/dev/null && fits node; then exec "$@"; fi

machine=$(node --version 2>/dev/null || echo none)
line=${want:-24}
why="this machine's Node ($machine) cannot run the portal"
[ -z "$want" ] || why="NODE_LTS=$want and this machine's Node is $machine"
runtime="${XDG_CACHE_HOME:-$HOME/.cache}/payments-portal/node-$line"
export PATH="$runtime/node_modules/.bin:$PATH"
if fits "$runtime/node_modules/.bin/node"; then
  echo "node-lts: $why; running on Node $line LTS from $runtime" >&2
else
  echo "node-lts: $why; bringing Node $line LTS from the npm registry into $runtime (once) and running on it" >&2
  mkdir -p "$runtime"
  # The package's install script fetches its platform's binary (itself a package of the registry): allowed by name.
  echo '{ "private": true, "allowScripts": { "node": true } }' >"$runtime/package.json"
  npm install --no-save --no-audit --no-fund --loglevel=error --prefix "$runtime" "node@$line" >/dev/null
  fits "$runtime/node_modules/.bin/node" || { echo "node-lts: the Node $line from the registry does not run here" >&2; exit 1; }
fi
exec "$@"
