#!/usr/bin/env bash
# The local stand-in of a Debian bookworm base image, for a machine that reaches Debian's package mirror but
# no image registry: debootstrap (minbase) into a folder, this machine's own apt sources and trust store
# copied in (so apt-get and npm inside a build reach what the machine reaches), imported as IMAGE.
# The root filesystem is kept as a tarball in CACHE, so the next import takes seconds, not minutes.
#   deploy/stand-ins/bookworm.sh IMAGE CACHE
set -euo pipefail
image="$1"
cache="$2"
if docker image inspect "$image" >/dev/null 2>&1; then exit 0; fi
mkdir -p "$cache"
tarball="$cache/bookworm-rootfs.tar"
if [ ! -f "$tarball" ]; then
  command -v debootstrap >/dev/null || { echo "debootstrap is missing: apt-get install -y debootstrap" >&2; exit 2; }
  # The mirror this machine's apt uses (deb822 .sources files or one-line sources.list), read at run time.
  mirror=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '/^URIs:/ {print $2; exit}')
  [ -n "$mirror" ] || mirror=$(awk '/^deb / && $0 !~ /security/ {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
  [ -n "$mirror" ] || { echo "no Debian mirror found in /etc/apt/sources.list(.d)" >&2; exit 2; }
  rootfs=$(mktemp -d /tmp/same-game-rootfs-XXXXXX)
  trap 'rm -rf "$rootfs"' EXIT
  echo "building the bookworm stand-in from $mirror (debootstrap, a few minutes)" >&2
  debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >"$cache/debootstrap.log" 2>&1 ||
    { tail -20 "$cache/debootstrap.log" >&2; exit 1; }
  rm -f "$rootfs/etc/apt/sources.list"
  cp /etc/apt/sources.list.d/*.sources "$rootfs/etc/apt/sources.list.d/" 2>/dev/null || true
  [ -f /etc/apt/sources.list ] && cp /etc/apt/sources.list "$rootfs/etc/apt/sources.list"
  cp -a /etc/apt/apt.conf.d/. "$rootfs/etc/apt/apt.conf.d/" 2>/dev/null || true
  mkdir -p "$rootfs/etc/ssl/certs"
  cp /etc/ssl/certs/ca-certificates.crt "$rootfs/etc/ssl/certs/ca-certificates.crt"
  rm -rf "$rootfs/var/cache/apt/archives/"*.deb "$rootfs/var/lib/apt/lists/"*
  tar -C "$rootfs" -cf "$tarball.part" . && mv "$tarball.part" "$tarball"
fi
docker import "$tarball" "$image" >/dev/null
echo "imported $image" >&2
