#!/usr/bin/env bash
# Installs Debian's chromium for the browser tests when it is missing (Playwright's own download cannot work here).
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then
  echo "chromium is missing: run 'apt-get install -y chromium' as root, then retry." >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends chromium fonts-liberation >/dev/null
/usr/bin/chromium --version
