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

# The first enabled source of Debian's SUITE (exactly: bookworm, or bookworm-security) in this machine's
# apt sources, one-line (.list) or deb822 (.sources) format: its URI, or nothing.
apt_source() {
  local files=()
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] && files+=("$f")
  done
  [ "${#files[@]}" -gt 0 ] || return 0
  awk -v suite="$1" '
    # A deb822 stanza ends at a blank line or with its file.
    function stanza_end() {
      if (uris != "" && enabled && index(" " suites " ", " " suite " ")) { print uris; found = 1; exit }
      uris = ""; suites = ""; enabled = 1
    }
    BEGIN { enabled = 1 }
    FNR == 1 && NR > 1 { stanza_end() }
    /^[ \t]*$/ { stanza_end() }
    /^deb[ \t]/ { sub(/\[[^]]*\]/, ""); if ($3 == suite) { print $2; found = 1; exit } }
    /^URIs:/ { uris = $2 }
    /^Suites:/ { suites = substr($0, 8) }
    /^Enabled:[ \t]*no/ { enabled = 0 }
    END { if (!found) stanza_end() }
  ' "${files[@]}"
}
mkdir -p "$cache"
tarball="$cache/bookworm-rootfs.tar"
if [ ! -f "$tarball" ]; then
  command -v debootstrap >/dev/null || { echo "debootstrap is missing: apt-get install -y debootstrap" >&2; exit 2; }
  # Debian's mirror as this machine's apt reaches it, read at run time from its sources (deb822 .sources
  # files and one-line .list files), or SAME_GAME_DEBIAN_MIRROR; the security archive likewise, if listed.
  mirror=${SAME_GAME_DEBIAN_MIRROR:-$(apt_source bookworm)}
  security=$(apt_source bookworm-security)
  [ -n "$mirror" ] || {
    echo "no Debian bookworm mirror in this machine's apt sources (/etc/apt/sources.list, /etc/apt/sources.list.d/*.sources|*.list): set SAME_GAME_DEBIAN_MIRROR=URL" >&2
    exit 2
  }
  # apt's proxy, if it has one, for debootstrap's downloads too (it reads the environment, not apt.conf).
  eval "$(apt-config shell http_proxy Acquire::http::Proxy 2>/dev/null || true)"
  [ -z "${http_proxy:-}" ] || export http_proxy
  rootfs=$(mktemp -d /tmp/same-game-rootfs-XXXXXX)
  trap 'rm -rf "$rootfs"' EXIT
  echo "building the bookworm stand-in from $mirror (debootstrap, a few minutes)" >&2
  debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >"$cache/debootstrap.log" 2>&1 ||
    { echo "debootstrap from $mirror failed; the end of $cache/debootstrap.log:" >&2; tail -20 "$cache/debootstrap.log" >&2; exit 1; }
  # Inside the image apt reads only Debian's archives, at the addresses this machine reaches them by (no
  # third-party source whose key the image lacks).
  rm -f "$rootfs/etc/apt/sources.list" "$rootfs/etc/apt/sources.list.d/"*
  {
    echo "deb $mirror bookworm main"
    echo "deb $mirror bookworm-updates main"
    [ -z "$security" ] || echo "deb $security bookworm-security main"
  } >"$rootfs/etc/apt/sources.list"
  cp -a /etc/apt/apt.conf.d/. "$rootfs/etc/apt/apt.conf.d/" 2>/dev/null || true
  mkdir -p "$rootfs/etc/ssl/certs"
  cp /etc/ssl/certs/ca-certificates.crt "$rootfs/etc/ssl/certs/ca-certificates.crt"
  rm -rf "$rootfs/var/cache/apt/archives/"*.deb "$rootfs/var/lib/apt/lists/"*
  tar -C "$rootfs" -cf "$tarball.part" . && mv "$tarball.part" "$tarball"
fi
docker import "$tarball" "$image" >/dev/null || { echo "docker import of $tarball as $image failed" >&2; exit 1; }
echo "imported $image" >&2
