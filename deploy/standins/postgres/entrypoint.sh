#!/bin/sh
# The official image's contract, in short: an empty PGDATA is initialised (UTF-8, C.UTF-8 locale)
# with POSTGRES_USER / POSTGRES_PASSWORD and POSTGRES_DB created; then postgres runs as the postgres
# user, listening on every interface, password (scram) authentication from other hosts.
set -eu
: "${POSTGRES_USER:=postgres}" "${POSTGRES_DB:=$POSTGRES_USER}"
if [ "$(id -u)" = 0 ]; then
    mkdir -p "$PGDATA" && chown -R postgres:postgres "$PGDATA" && chmod 700 "$PGDATA"
    exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi
if [ ! -s "$PGDATA/PG_VERSION" ]; then
    [ -n "${POSTGRES_PASSWORD:-}" ] || { echo "POSTGRES_PASSWORD must be set" >&2; exit 1; }
    pwfile=$(mktemp) && printf '%s\n' "$POSTGRES_PASSWORD" > "$pwfile"
    initdb --username="$POSTGRES_USER" --pwfile="$pwfile" --encoding=UTF8 --locale=C.UTF-8 \
        --auth-local=trust --auth-host=scram-sha-256 -D "$PGDATA" >/dev/null
    rm -f "$pwfile"
    echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
    if [ "$POSTGRES_DB" != postgres ]; then
        postgres --single -D "$PGDATA" -j postgres <<SQL >/dev/null
CREATE DATABASE "$POSTGRES_DB" OWNER "$POSTGRES_USER";
SQL
    fi
    echo "initialised $PGDATA (UTF-8) with user $POSTGRES_USER and database $POSTGRES_DB"
fi
if [ "${1:-postgres}" = postgres ]; then
    shift $(( $# > 0 ? 1 : 0 ))
    exec postgres -D "$PGDATA" -c listen_addresses='*' "$@"
fi
exec "$@"
