#!/bin/sh
# Make sure a container engine and Compose v2 are here, for `make compose-test`:
# - a running Docker daemon (Debian's docker.io, installed and started when missing);
# - Compose v2 (`docker compose`): bookworm has only 1.29, so the docker-compose package of Debian
#   unstable (2.x) is downloaded and its plugin unpacked into Docker's plugin directory, without
#   upgrading anything else on the machine;
# - debootstrap, for the base image (deploy/images/build-base.sh).
# Prints one line and exits 0 when all is there; exits 3 with the reason when it cannot be (no root,
# no apt), which `make compose-test` reports as skipped.
set -eu
have_daemon() { docker info >/dev/null 2>&1; }
have_compose_v2() { docker compose version --short 2>/dev/null | grep -q '^v\{0,1\}2\.'; }
need=""
have_daemon || need="$need daemon"
have_compose_v2 || need="$need compose"
command -v debootstrap >/dev/null || need="$need debootstrap"
if [ -z "$need" ]; then
    echo "engine: $(docker version -f 'Docker {{.Server.Version}}'), Compose $(docker compose version --short)"
    exit 0
fi
if [ "$(id -u)" != 0 ]; then
    echo "engine: missing$need and not root, so nothing can be installed" >&2
    exit 3
fi
command -v apt-get >/dev/null || { echo "engine: missing$need and no apt-get" >&2; exit 3; }
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
case "$need" in *daemon*|*debootstrap*)
    command -v dockerd >/dev/null || apt-get install -y -qq docker.io >/dev/null
    command -v debootstrap >/dev/null || apt-get install -y -qq debootstrap >/dev/null ;;
esac
if ! have_daemon; then
    # no init system to ask in a container or a bare VM: start the daemon ourselves
    nohup dockerd >/var/log/dockerd.log 2>&1 &
    i=0
    until have_daemon; do
        i=$((i + 1))
        [ "$i" -le 60 ] || { echo "engine: dockerd did not start; see /var/log/dockerd.log" >&2; exit 1; }
        sleep 1
    done
fi
if ! have_compose_v2; then
    tmp=$(mktemp -d)
    printf 'Types: deb\nURIs: http://deb.debian.org/debian\nSuites: unstable\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
        > "$tmp/unstable.sources"
    apt_unstable="-o Acquire::Check-Valid-Until=false -o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts=$tmp -o Dir::State::Lists=$tmp/lists -o Dir::Cache::Archives=$tmp"
    mkdir -p "$tmp/lists/partial"
    # shellcheck disable=SC2086
    apt-get $apt_unstable update -qq
    # shellcheck disable=SC2086
    (cd "$tmp" && apt-get $apt_unstable download -qq docker-compose)
    dpkg-deb -x "$tmp"/docker-compose_*.deb "$tmp/root"
    mkdir -p /usr/libexec/docker/cli-plugins /usr/local/lib/docker/cli-plugins
    install -m 755 "$tmp/root/usr/libexec/docker/cli-plugins/docker-compose" /usr/local/lib/docker/cli-plugins/
    rm -rf "$tmp"
    have_compose_v2 || { echo "engine: Compose v2 did not install" >&2; exit 1; }
fi
echo "engine: $(docker version -f 'Docker {{.Server.Version}}'), Compose $(docker compose version --short) (installed:$need)"
