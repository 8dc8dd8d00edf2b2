#!/usr/bin/env bash
# The Docker engine for the deployment. `daemon.sh start STATE`: nothing when a daemon answers already;
# otherwise starts dockerd (root only) with its data in STATE/docker, on the default socket so plain
# `docker` commands see the deployment, and notes that it did. `daemon.sh stop STATE`: stops the daemon
# only if start started it, and removes its data.
set -euo pipefail
command="$1"
state="$2"
case "$command" in
  start)
    docker info >/dev/null 2>&1 && exit 0
    command -v dockerd >/dev/null || { echo "the Docker engine is missing: apt-get install -y docker.io docker-compose debootstrap" >&2; exit 2; }
    [ "$(id -u)" = 0 ] || { echo "no Docker daemon answers, and only root can start one: start dockerd, or run as root" >&2; exit 2; }
    mkdir -p "$state"
    dockerd --data-root "$state/docker" --exec-root "$state/exec" --pidfile "$state/dockerd.pid" \
      --storage-driver overlay2 >"$state/dockerd.log" 2>&1 &
    echo "$!" >"$state/started-daemon"
    for _ in $(seq 1 60); do
      docker info >/dev/null 2>&1 && { echo "started dockerd (data in $state/docker, log $state/dockerd.log)" >&2; exit 0; }
      kill -0 "$(cat "$state/started-daemon")" 2>/dev/null || break
      sleep 0.5
    done
    echo "dockerd did not start:" >&2
    tail -20 "$state/dockerd.log" >&2
    exit 1
    ;;
  stop)
    [ -f "$state/started-daemon" ] || exit 0
    pid=$(cat "$state/started-daemon")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    kill -9 "$pid" 2>/dev/null || true
    # Whatever the daemon left mounted under its folders is unmounted before the folders go.
    awk -v s="$state/" 'index($2, s) == 1 {print $2}' /proc/mounts | sort -r | xargs -r umount -l
    rm -rf "$state/docker" "$state/exec" "$state/started-daemon"
    echo "stopped the dockerd that deploy:up started" >&2
    ;;
  *)
    echo "usage: daemon.sh start STATE | stop STATE" >&2
    exit 2
    ;;
esac
