#!/usr/bin/env bash
# Installs the Debian packages the suite needs where they are missing: chromium and its headless shell, which the
# browser tests drive (the old headless mode: about half chromium's CPU a page; the Lighthouse bench runs chromium
# itself), redis-server for the shared-store tests (they start their own servers), and curl for the production-tree
# check. Playwright's own browser download cannot work here.
set -euo pipefail
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium fonts-liberation)
[ -x /usr/bin/chromium-headless-shell ] || missing+=(chromium-headless-shell)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
command -v curl >/dev/null 2>&1 || missing+=(curl)
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then
  echo "missing: run 'apt-get install -y ${missing[*]}' as root, then retry." >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "installed: ${missing[*]}"
