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
    for _ in $(seq 1 120); do
      docker info >/dev/null 2>&1 && { echo "started dockerd (data in $state/docker, log $state/dockerd.log)" >&2; exit 0; }
      kill -0 "$(cat "$state/started-daemon")" 2>/dev/null || break
      sleep 0.5
    done
    # Why, in one line where the log says it (the usual causes in a container or a VM without them), then
    # the daemon's own last words.
    kill "$(cat "$state/started-daemon")" 2>/dev/null || true
    rm -f "$state/started-daemon"
    log="$state/dockerd.log"
    errors=$(grep -iE "level=(fatal|error)|failed to start|^failed" "$log" | tail -5 || true)
    cause="it did not answer within 60 s"
    case "${errors,,}" in
      *overlay*) cause="the overlay2 storage driver is not supported on the file system of $state (an overlay inside a container?)" ;;
      *iptables* | *"nat chain"*) cause="iptables failed (no NET_ADMIN capability, or no iptables modules)" ;;
      *cgroup*) cause="cgroups are missing or read-only here" ;;
      *"operation not permitted"* | *"permission denied"*) cause="an operation was not permitted (an unprivileged container?)" ;;
      *"address already in use"*) cause="its socket is in use by another daemon that does not answer" ;;
      ?*) cause="it exited with an error" ;;
    esac
    echo "dockerd did not start: $cause. Its log ($log) says:" >&2
    if [ -n "$errors" ]; then echo "$errors" >&2; else tail -5 "$log" >&2; fi
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
