# Sourced by deploy/up.sh, down.sh and smoke.sh: where the deployment keeps its state, how Compose is called.
# The project name is given with -p (Compose 1.29 rejects a top-level `name:` in the file).
DEPLOY_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
REPO_DIR="$(cd "$DEPLOY_DIR/.." && pwd)"
export SAME_GAME_DEPLOY_STATE="${SAME_GAME_DEPLOY_STATE:-/tmp/same-game-deploy}"
PROJECT=same-game
TOKENS_FILE="$DEPLOY_DIR/tokens.txt"
PROXY_URL=http://127.0.0.1:8080

# Compose v2 (the docker plugin) where it is installed, else Debian's docker-compose 1.29.
compose() {
  local files=(-f "$DEPLOY_DIR/compose.yaml" -f "$DEPLOY_DIR/compose.host.yaml")
  if docker compose version >/dev/null 2>&1; then
    docker compose -p "$PROJECT" "${files[@]}" "$@"
  elif command -v docker-compose >/dev/null; then
    docker-compose -p "$PROJECT" "${files[@]}" "$@"
  else
    echo "Docker Compose is missing: apt-get install -y docker-compose" >&2
    return 2
  fi
}

# The images deploy/up.sh chose (official or stand-ins), for every later compose call.
# shellcheck disable=SC1091
if [ -f "$SAME_GAME_DEPLOY_STATE/images.env" ]; then . "$SAME_GAME_DEPLOY_STATE/images.env"; fi
