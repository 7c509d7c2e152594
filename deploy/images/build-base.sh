#!/bin/sh
# Build the base image the app and the stand-ins start from, from Debian's packages alone, for
# machines that cannot pull from a public image registry:
#   debootstrap --variant=minbase bookworm, with python3 and venv, then `docker import`.
# Usage: deploy/images/build-base.sh [TAG [SUITE]]
#   default twlookup-base:bookworm (with python3); SUITE unstable builds the nginx stand-in's base
#   (nginx >= 1.27.3 is in unstable only), without python3. An image that exists is kept.
set -eu
TAG=${1:-twlookup-base:bookworm}
SUITE=${2:-bookworm}
case "$SUITE" in
    bookworm) INCLUDE=python3,python3-venv,python-is-python3,ca-certificates ;;
    *) INCLUDE=ca-certificates ;;
esac
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
if docker image inspect "$TAG" >/dev/null 2>&1 && [ -z "${REBUILD:-}" ]; then
    echo "base image $TAG exists (REBUILD=1 rebuilds it)"
    exit 0
fi
command -v debootstrap >/dev/null || { echo "debootstrap is missing: apt-get install debootstrap" >&2; exit 1; }
ROOT=$(mktemp -d /var/tmp/twlookup-base.XXXXXX)
trap 'rm -rf "$ROOT"' EXIT
debootstrap --variant=minbase --include="$INCLUDE" "$SUITE" "$ROOT" "$MIRROR" >/dev/null
# a mirror may serve Release files past their Valid-Until date: apt inside checks signatures, not dates
printf 'Acquire::Check-Valid-Until "false";\nAcquire::Check-Date "false";\n' > "$ROOT/etc/apt/apt.conf.d/99snapshot-dates"
# the host's own certificate authorities (a TLS-inspecting proxy between this machine and PyPI, say)
# are trusted inside too, so that pip in an image build reaches what pip on the host reaches
if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then
    cp /usr/local/share/ca-certificates/*.crt "$ROOT/usr/local/share/ca-certificates/"
    chroot "$ROOT" update-ca-certificates >/dev/null
fi
# what an image does not need: apt lists, docs, man pages, locales but C.UTF-8
chroot "$ROOT" apt-get clean
rm -rf "$ROOT"/var/lib/apt/lists/* "$ROOT"/usr/share/doc/* "$ROOT"/usr/share/man/* "$ROOT"/var/cache/debconf/*-old
tar -C "$ROOT" -c . | docker import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8' \
    --change 'CMD ["/bin/bash"]' - "$TAG" >/dev/null
echo "built $TAG: $(docker image inspect -f '{{.Size}}' "$TAG" | awk '{printf "%.0f MB", $1/1e6}')"
