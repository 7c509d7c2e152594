#!/bin/sh
# As the official image does: redis-server started without a config file listens on every interface
# with protected mode off (the container network is the boundary).
set -eu
if [ "${1:-}" = redis-server ]; then
    shift
    exec redis-server --bind '* -::*' --protected-mode no "$@"
fi
exec "$@"
