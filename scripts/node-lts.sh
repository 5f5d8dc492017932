#!/usr/bin/env bash
# Runs its arguments on a Node that can run the portal and its sandbox (22.13 or later, for node:sqlite): the machine's
# own when it is new enough, else the exact Node that scripts/node-lts.pins names (24, or NODE_LTS=22), from its
# platform's npm package, kept in a cache outside the checkout. Before every run the cache must be the user's alone and
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
sha256() { if command -v sha256sum >/dev/null; then sha256sum "$1"; else shasum -a 256 "$1"; fi | cut -d' ' -f1; }
# foreign FOLDER [FIND OPTIONS]: the first file or folder in FOLDER (itself included) that is not this user's or that
# another may write (links aside), so that no one else can swap the binary between the check and the run.
foreign() { find -H "$1" "${@:2}" \( ! -user "$(id -u)" -o \( ! -type l -perm /022 \) \) -print -quit; }
# checked: the cache and all in it are this user's alone, and the binary is the pinned one, byte for byte.
checked() {
  local folder=$1 node="$1/node_modules/$package/bin/node" other
  other=$(foreign "$(dirname "$folder")" -maxdepth 0)
  [ -z "$other" ] || refuse "$other is not owned by $(id -un) alone: refused (set XDG_CACHE_HOME, or mend its owner and mode)"
  other=$(foreign "$folder")
  [ -z "$other" ] || refuse "$other is not owned by $(id -un) alone: refused (remove $runtime)"
  [ -f "$node" ] || refuse "$runtime holds no Node $version: refused (remove it)"
  [ "$(sha256 "$node")" = "$sum" ] || refuse "$node is not the pinned Node $version (SHA-256 differs): refused (remove $runtime)"
}

if [ -e "$runtime" ]; then
  checked "$runtime"
  echo "node-lts: $why; running on Node $version from $runtime" >&2
else
  echo "node-lts: $why; bringing Node $version from the npm registry into $runtime (once) and running on it" >&2
  # Brought into a folder of its own, checked, then moved into place: a failed download leaves no cache behind.
  umask 022 # what it makes only this user may write, as checked() asks
  mkdir -p "$(dirname "$runtime")"
  partial=$(mktemp -d "$runtime.partial.XXXXXX")
  trap 'rm -rf "$partial"' EXIT
  echo '{ "private": true }' >"$partial/package.json"
  if ! failed=$(npm install --no-save --no-audit --no-fund --ignore-scripts --loglevel=error --prefix "$partial" \
    "$package@$version" 2>&1 >/dev/null); then
    refuse "could not bring $package@$version from the npm registry: $(grep -m1 -E 'npm (error|ERR!) (code|[a-z])' <<<"$failed" || echo 'npm failed')"
  fi
  checked "$partial"
  mv "$partial" "$runtime"
  trap - EXIT
fi
export PATH="$runtime/node_modules/$package/bin:$PATH"
exec "$@"
