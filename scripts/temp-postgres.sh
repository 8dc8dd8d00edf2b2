#!/usr/bin/env bash
# A throw-away PostgreSQL 15 for tests and CI: `temp-postgres.sh start DIR PORT` initialises DIR, starts the
# server on 127.0.0.1:PORT (its unix socket inside DIR, so it never meets a system server) and prints the
# URL to use as SAME_GAME_TEST_PG; `temp-postgres.sh stop DIR` stops it and removes DIR. For outage tests,
# `halt DIR` stops the server and keeps its data, and `resume DIR PORT` starts it again.
# PostgreSQL refuses to run as root, so under root (CI) the server runs as the `postgres` system user.
set -euo pipefail
BIN="${PG_BIN:-/usr/lib/postgresql/15/bin}"
command="$1"
dir="$2"

as_owner() {
  if [ "$(id -u)" = "0" ]; then
    id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

case "$command" in
  start)
    port="$3"
    mkdir -p "$dir"
    [ "$(id -u)" = "0" ] && { id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres; chown postgres "$dir"; }
    # Trust on loopback only: the server listens on nothing else and lives as long as the test run.
    as_owner "$BIN/initdb" -D "$dir/data" -U postgres --auth=trust --locale=C.UTF-8 --encoding=UTF8 >"$dir/initdb.log"
    as_owner "$BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c max_connections=200" start >/dev/null
    echo "postgres://postgres@127.0.0.1:$port/postgres"
    ;;
  halt)
    as_owner "$BIN/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
    ;;
  resume)
    port="$3"
    as_owner "$BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c max_connections=200" start >/dev/null
    ;;
  stop)
    if [ -d "$dir/data" ]; then
      as_owner "$BIN/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null || true
    fi
    rm -rf "$dir"
    ;;
  *)
    echo "usage: temp-postgres.sh start DIR PORT | halt DIR | resume DIR PORT | stop DIR" >&2
    exit 2
    ;;
esac
