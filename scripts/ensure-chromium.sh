#!/usr/bin/env bash
# Installs Debian's chromium for the browser tests when it is missing (Playwright's own download cannot work here), and
# its headless shell, which the tests drive (the old headless mode: about half chromium's CPU per page); the
# Lighthouse bench runs chromium itself.
set -euo pipefail
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium fonts-liberation)
[ -x /usr/bin/chromium-headless-shell ] || missing+=(chromium-headless-shell)
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then
  echo "missing: run 'apt-get install -y ${missing[*]}' as root, then retry." >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
/usr/bin/chromium --version
