#!/usr/bin/env bash
# Debian's headless Chromium for the browser tests (never `playwright install`). Idempotent.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  echo "run as root: apt-get install -y chromium" >&2
  exit 1
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
/usr/bin/chromium --version
