#!/bin/sh
# Build the base image the app and the stand-ins start from, from Debian's packages alone, for
# machines that cannot pull from a public image registry:
#   debootstrap --variant=minbase bookworm, with python3 and venv, then `docker import`.
# Usage: deploy/images/build-base.sh [TAG]   (default twlookup-base:bookworm; kept if it exists)
set -eu
TAG=${1:-twlookup-base:bookworm}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
if docker image inspect "$TAG" >/dev/null 2>&1 && [ -z "${REBUILD:-}" ]; then
    echo "base image $TAG exists (REBUILD=1 rebuilds it)"
    exit 0
fi
command -v debootstrap >/dev/null || { echo "debootstrap is missing: apt-get install debootstrap" >&2; exit 1; }
ROOT=$(mktemp -d /var/tmp/twlookup-base.XXXXXX)
trap 'rm -rf "$ROOT"' EXIT
debootstrap --variant=minbase --include=python3,python3-venv,python-is-python3,ca-certificates \
    bookworm "$ROOT" "$MIRROR" >/dev/null
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
