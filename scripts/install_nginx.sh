#!/usr/bin/env bash
# Debian's nginx for tests/deploy/test_proxy.py (the compose recipe's proxy config, run against
# the real service). Idempotent; nginx is only run by the test, never as a system service.
set -euo pipefail
if [ -x /usr/sbin/nginx ]; then
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  echo "run as root: apt-get install -y nginx" >&2
  exit 1
fi
apt-get update -qq
# policy-rc.d keeps Debian from starting the packaged service on install
DEBIAN_FRONTEND=noninteractive RUNLEVEL=1 apt-get install -y -qq nginx-light
/usr/sbin/nginx -v
