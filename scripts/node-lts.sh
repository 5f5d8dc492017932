#!/usr/bin/env bash
# Runs its arguments on a Node that can run the portal and its sandbox (22.13 or later, for node:sqlite): the machine's
# own when it is new enough, else the exact Node that scripts/node-lts.pins names (24, or NODE_LTS=22), from its
# platform's npm package, kept in a cache outside the checkout. Before every run the cache must be the user's own and
# its binary's SHA-256 the pinned one, or it is refused in one line. It says so in one line, and puts that Node first
# on PATH, so the npm and node calls of what it runs use it too (docs/decisions.md, "Runtime and install").
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

refuse() { echo "node-lts: $1" >&2; exit 1; }
machine=$(node --version 2>/dev/null || echo none)
line=${want:-24}
platform="$(uname -s | tr '[:upper:]' '[:lower:]')-$(uname -m | sed 's/x86_64/x64/; s/aarch64/arm64/')"
# The pin of this line and platform: "version platform package sha256", one line of the pins file.
pin=$(grep -E "^$line\.[0-9]+\.[0-9]+ +$platform " "$(dirname "$0")/node-lts.pins" || true)
read -r version _ package sum <<<"$pin"
[ -n "${sum:-}" ] || refuse "no Node $line is pinned for $platform in scripts/node-lts.pins; install Node 24 yourself"
why="this machine's Node ($machine) cannot run the portal"
[ -z "$want" ] || why="NODE_LTS=$want and this machine's Node is $machine"
runtime="${XDG_CACHE_HOME:-$HOME/.cache}/payments-portal/node-$version"
binary="$runtime/node_modules/$package/bin/node"
sha256() { if command -v sha256sum >/dev/null; then sha256sum "$1"; else shasum -a 256 "$1"; fi | cut -d' ' -f1; }
# checked: the cache and its binary are this user's, and the binary is the pinned one, byte for byte.
checked() {
  [ -O "$runtime" ] || refuse "$runtime is not owned by $(id -un): refused (remove it, or set XDG_CACHE_HOME)"
  [ -f "$binary" ] || refuse "$runtime holds no Node $version: refused (remove it)"
  [ -O "$binary" ] || refuse "$binary is not owned by $(id -un): refused (remove $runtime)"
  [ "$(sha256 "$binary")" = "$sum" ] || refuse "$binary is not the pinned Node $version (SHA-256 differs): refused (remove $runtime)"
}

if [ -e "$runtime" ]; then
  checked
  echo "node-lts: $why; running on Node $version from $runtime" >&2
else
  echo "node-lts: $why; bringing Node $version from the npm registry into $runtime (once) and running on it" >&2
  mkdir -p "$runtime"
  echo '{ "private": true }' >"$runtime/package.json"
  npm install --no-save --no-audit --no-fund --ignore-scripts --loglevel=error --prefix "$runtime" "$package@$version" >/dev/null
  checked
fi
export PATH="$runtime/node_modules/$package/bin:$PATH"
exec "$@"
