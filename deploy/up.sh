#!/usr/bin/env bash
# npm run deploy:up — PostgreSQL, three stateless same-game replicas and nginx (deploy/compose.yaml, with
# compose.host.yaml: everything on 127.0.0.1), built and started; returns once /readyz answers through
# nginx on 127.0.0.1:8080. Starts a Docker daemon when none runs (deploy:down stops it again), creates
# deploy/tokens.txt with one random bearer token when it is missing, and builds local stand-ins of the base
# images when no image registry can be reached. SAME_GAME_DEPLOY_REPLICAS=1|2 puts only that many replicas
# behind nginx (the benches' smaller set-ups).
set -euo pipefail
# shellcheck source=lib/settings.sh
. "$(dirname "$0")/lib/settings.sh"
replicas=${SAME_GAME_DEPLOY_REPLICAS:-3}
case "$replicas" in 1 | 2 | 3) ;; *) echo "SAME_GAME_DEPLOY_REPLICAS must be 1, 2 or 3, not '$replicas'" >&2; exit 2 ;; esac
mkdir -p "$SAME_GAME_DEPLOY_STATE"
"$DEPLOY_DIR/lib/daemon.sh" start "$SAME_GAME_DEPLOY_STATE"

if [ ! -s "$TOKENS_FILE" ]; then
  node -e 'console.log(require("node:crypto").randomBytes(24).toString("hex"))' >"$TOKENS_FILE"
  echo "created $TOKENS_FILE with one random bearer token" >&2
fi
# The replicas run as uid 1000 and read the file through a bind mount: it must be readable by others.
chmod a+r "$TOKENS_FILE"

# The official base images when a registry answers (or they are here already), else local stand-ins.
if [ ! -f "$SAME_GAME_DEPLOY_STATE/images.env" ]; then
  official=yes
  for image in node:20-slim postgres:15 nginx:1.27; do
    docker image inspect "$image" >/dev/null 2>&1 && continue
    timeout 300 docker pull -q "$image" >/dev/null 2>&1 || { official=no; break; }
  done
  if [ "$official" = yes ]; then
    : >"$SAME_GAME_DEPLOY_STATE/images.env"
  else
    echo "no image registry reachable: building local stand-ins of the base images (deploy/stand-ins)" >&2
    # Through a variable, not a process substitution: a failed build must stop deploy:up here.
    built=$("$DEPLOY_DIR/stand-ins/build.sh" "${XDG_CACHE_HOME:-$HOME/.cache}/same-game/stand-ins") ||
      { echo "the stand-ins of the base images could not be built (the cause is above)" >&2; exit 1; }
    mapfile -t stand_ins <<<"$built"
    printf 'export SAME_GAME_NODE_IMAGE=%s SAME_GAME_POSTGRES_IMAGE=%s SAME_GAME_NGINX_IMAGE=%s\n' \
      "${stand_ins[@]}" >"$SAME_GAME_DEPLOY_STATE/images.env"
  fi
  # shellcheck disable=SC1091
  . "$SAME_GAME_DEPLOY_STATE/images.env"
fi

# nginx's configuration on this machine: deploy/nginx.conf with the replicas at 127.0.0.1:8787…8789 (as
# many as run) and the listener on loopback.
sed -e 's/server replica-1:8787/server 127.0.0.1:8787/' \
    -e 's/server replica-2:8787/server 127.0.0.1:8788/' \
    -e 's/server replica-3:8787/server 127.0.0.1:8789/' \
    -e 's/listen 8080;/listen 127.0.0.1:8080;/' \
    "$DEPLOY_DIR/nginx.conf" | awk -v keep="$replicas" '/server 127\.0\.0\.1:878/ && ++n > keep { next } { print }' \
  >"$SAME_GAME_DEPLOY_STATE/nginx.conf"

services=(postgres)
for i in $(seq 1 "$replicas"); do services+=("replica-$i"); done
echo "building the same-game image (from nothing about 20 minutes on a loaded 2-core machine, seconds when its layers are cached; log $SAME_GAME_DEPLOY_STATE/build.log)" >&2
compose build >"$SAME_GAME_DEPLOY_STATE/build.log" 2>&1 || {
  echo "building the same-game image failed; the end of $SAME_GAME_DEPLOY_STATE/build.log:" >&2
  tail -30 "$SAME_GAME_DEPLOY_STATE/build.log" >&2
  exit 1
}
compose up -d "${services[@]}"
compose up -d --no-deps loopback-proxy

# Ready: every replica healthy by its own /readyz (database included), and /readyz answers through nginx.
healthy() {
  local id
  for i in $(seq 1 "$replicas"); do
    id=$(compose ps -q "replica-$i")
    [ "$(docker inspect -f '{{.State.Health.Status}}' "$id" 2>/dev/null)" = healthy ] || return 1
  done
  node -e 'fetch(process.argv[1]).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))' "$PROXY_URL/readyz"
}
# Five minutes: on a loaded machine each health check can take seconds (see compose.yaml).
for _ in $(seq 1 600); do
  if healthy; then
    echo "same-game is up: MCP at $PROXY_URL/mcp (${replicas} replica(s) behind nginx, PostgreSQL 15); bearer tokens in $TOKENS_FILE" >&2
    exit 0
  fi
  sleep 0.5
done
echo "not every replica healthy, or no answer from $PROXY_URL/readyz, after 5 minutes:" >&2
compose ps >&2
compose logs --tail 20 >&2
exit 1
