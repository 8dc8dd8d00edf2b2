#!/usr/bin/env bash
# npm run deploy:down — removes what deploy:up started: the containers, their network and the PostgreSQL
# volume, and the Docker daemon if deploy:up started it. The images stay (unless the daemon goes, with its data).
set -euo pipefail
# shellcheck source=lib/settings.sh
. "$(dirname "$0")/lib/settings.sh"
if docker info >/dev/null 2>&1; then
  compose down --volumes --remove-orphans --timeout 20
fi
# SAME_GAME_DEPLOY_KEEP_DAEMON=1 (a bench's set-ups in turn) keeps the daemon, and with it the images.
if [ "${SAME_GAME_DEPLOY_KEEP_DAEMON:-}" = 1 ]; then
  exit 0
fi
"$DEPLOY_DIR/lib/daemon.sh" stop "$SAME_GAME_DEPLOY_STATE"
rm -rf "$SAME_GAME_DEPLOY_STATE"
echo "same-game deployment removed" >&2
