#!/usr/bin/env bash
# npm run deploy:smoke — deploy:up, then deploy/smoke.mjs (8 clients play a study through nginx; a replica
# is killed and PostgreSQL restarted mid-study; the record is audited), then deploy:down however it ends.
# Prints `acknowledged N, rows N, lost 0, duplicated 0`; exit 0 only when nothing was lost or doubled.
set -euo pipefail
# shellcheck source=lib/settings.sh
. "$(dirname "$0")/lib/settings.sh"
trap 'bash "$DEPLOY_DIR/down.sh"' EXIT
bash "$DEPLOY_DIR/up.sh"
# shellcheck disable=SC1091
. "$SAME_GAME_DEPLOY_STATE/images.env"
KILL_CONTAINER=$(compose ps -q replica-2) RESTART_CONTAINER=$(compose ps -q postgres) \
  PROXY_URL="$PROXY_URL" TOKENS_FILE="$TOKENS_FILE" \
  RECORD_URL=postgres://same_game:same_game@127.0.0.1:55432/same_game \
  node "$DEPLOY_DIR/smoke.mjs"
