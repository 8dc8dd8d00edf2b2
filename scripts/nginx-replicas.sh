#!/usr/bin/env bash
# Runs deploy/nginx.conf — the same file the compose deployment mounts, with only the upstream addresses,
# the listen address and the pid path rewritten — in front of three local same-game replicas on one record,
# then drives a load through nginx and SIGKILLs one replica mid-run (scripts/nginx-smoke.mjs).
#   npm run build && bash scripts/nginx-replicas.sh            # record: a temp SQLite file (WAL)
#   SAME_GAME_DB=postgres://… bash scripts/nginx-replicas.sh   # record: that PostgreSQL database
# Needs Debian's nginx (apt-get install -y nginx). Exit 0 when every client finished and the audit holds.
set -euo pipefail
cd "$(dirname "$0")/.."
NGINX=${NGINX:-$(command -v nginx || echo /usr/sbin/nginx)}
[ -x "$NGINX" ] || { echo "nginx is missing: apt-get install -y nginx" >&2; exit 2; }
[ -f dist/cli/main.js ] || { echo "dist/ is missing: run npm run build first" >&2; exit 2; }
work=$(mktemp -d /tmp/same-game-nginx-XXXXXX)
record=${SAME_GAME_DB:-$work/record.db}
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true
  sleep 0.5
  rm -rf "$work"
}
trap cleanup EXIT

ports=()
for i in 1 2 3; do
  node dist/cli/main.js serve --http --port 0 --db "$record" --toolsets all --rate-limit 100000 \
    2>"$work/replica-$i.log" &
  pids+=("$!")
  for _ in $(seq 1 300); do
    url=$(grep -o 'serving MCP over HTTP at [^;]*' "$work/replica-$i.log" | awk '{print $NF}' || true)
    [ -n "$url" ] && break
    sleep 0.1
  done
  [ -n "$url" ] || { echo "replica $i did not start:" >&2; cat "$work/replica-$i.log" >&2; exit 1; }
  port=${url#http://127.0.0.1:}
  ports+=("${port%/mcp}")
done
proxy_port=${PROXY_PORT:-18080}
sed -e "s/server replica-1:8787/server 127.0.0.1:${ports[0]}/" \
    -e "s/server replica-2:8787/server 127.0.0.1:${ports[1]}/" \
    -e "s/server replica-3:8787/server 127.0.0.1:${ports[2]}/" \
    -e "s/listen 8080;/listen 127.0.0.1:${proxy_port};/" \
    -e "s|pid /tmp/nginx.pid;|pid $work/nginx.pid;|" \
    deploy/nginx.conf >"$work/nginx.conf"
echo "nginx.conf differs from deploy/nginx.conf only in:"
diff deploy/nginx.conf "$work/nginx.conf" | grep '^>' || true
"$NGINX" -t -q -p "$work" -e "$work/nginx-error.log" -c "$work/nginx.conf"
"$NGINX" -p "$work" -e "$work/nginx-error.log" -c "$work/nginx.conf"
for _ in $(seq 1 50); do [ -f "$work/nginx.pid" ] && break; sleep 0.1; done
echo "readyz through nginx: $(curl -s "http://127.0.0.1:${proxy_port}/readyz")"
PROXY_URL="http://127.0.0.1:${proxy_port}/mcp" KILL_PID="${pids[1]}" RECORD="$record" node scripts/nginx-smoke.mjs
