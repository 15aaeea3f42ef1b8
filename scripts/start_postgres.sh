#!/usr/bin/env bash
# Start a throw-away local PostgreSQL (Debian `postgresql` package) for the storage tests.
# Idempotent: reuses the cluster if it is already running. Prints the DSN on stdout:
#   export ASSISTANT_TEST_POSTGRES_DSN="$(scripts/start_postgres.sh)"
# Stop it with: scripts/start_postgres.sh stop
set -euo pipefail

PGPORT="${PGPORT:-54329}"
PGROOT="${ASSISTANT_PG_DIR:-/tmp/glossary-assistant-pg}"
DATA="$PGROOT/data"
BIN="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"

if [ -z "$BIN" ]; then
  if [ "$(id -u)" = 0 ]; then
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql) >&2
    BIN="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
  else
    echo "postgresql is not installed (apt-get install postgresql)" >&2
    exit 1
  fi
fi

# PostgreSQL refuses to run as root: run it as the `postgres` user when we are root.
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

if [ "${1:-}" = "stop" ]; then
  as_pg "$BIN/pg_ctl" -D "$DATA" stop -m fast >&2 || true
  exit 0
fi

mkdir -p "$PGROOT"
[ "$(id -u)" = 0 ] && chown postgres:postgres "$PGROOT"
if [ ! -s "$DATA/PG_VERSION" ]; then
  as_pg "$BIN/initdb" -D "$DATA" -U assistant --auth=trust -E UTF8 --locale=C.UTF-8 >&2
fi
if ! as_pg "$BIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1; then
  as_pg "$BIN/pg_ctl" -D "$DATA" -l "$PGROOT/server.log" -w \
    -o "-p $PGPORT -k $PGROOT -c listen_addresses=127.0.0.1 -c fsync=off" start >&2
fi
if ! as_pg "$BIN/psql" -h 127.0.0.1 -p "$PGPORT" -U assistant -d postgres -tAc \
    "SELECT 1 FROM pg_database WHERE datname='assistant_test'" | grep -q 1; then
  as_pg "$BIN/createdb" -h 127.0.0.1 -p "$PGPORT" -U assistant assistant_test >&2
fi
echo "postgresql://assistant@127.0.0.1:$PGPORT/assistant_test"
