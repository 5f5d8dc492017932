#!/usr/bin/env bash
# Installs Debian's redis-server for the shared-store tests when it is missing (the tests start their own server).
set -euo pipefail
if command -v redis-server >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then
  echo "redis-server is missing: run 'apt-get install -y redis-server' as root, then retry." >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# The package's own service is not wanted (the tests start servers on free ports); policy-rc.d keeps it stopped.
apt-get install -y -qq --no-install-recommends redis-server >/dev/null
redis-server --version
