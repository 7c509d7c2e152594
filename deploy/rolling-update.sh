#!/bin/sh
# Replace the app replicas one at a time, so that an image or configuration change costs no failed
# request: start one replica with the new image and settings beside the old ones, wait until its
# health check passes, then stop one old replica (it finishes what it is serving; nginx sends new
# requests to the others), and so on. Then the scheduler is recreated and nginx reloads its files.
#
#   deploy/rolling-update.sh                 # docker compose with the files in COMPOSE_FILE, or docker-compose.yml
#   COMPOSE="docker compose -p NAME -f docker-compose.yml -f deploy/compose.standins.yml" deploy/rolling-update.sh
#
# Build the new image first (docker compose build app). A replica that does not become healthy
# within HEALTH_WAIT seconds (default 120) stops the update with the old replicas still serving.
set -eu
COMPOSE=${COMPOSE:-docker compose}
HEALTH_WAIT=${HEALTH_WAIT:-120}
STOP_GRACE=${STOP_GRACE:-30}

old=$($COMPOSE ps -q app)
count=$(echo "$old" | grep -c . || true)
[ "$count" -gt 0 ] || { echo "no app replica is running: use docker compose up -d" >&2; exit 1; }

healthy() {
    [ "$(docker inspect -f '{{if .State.Health}}{{.State.Health.Status}}{{end}}' "$1")" = healthy ]
}

for container in $old; do
    before=$($COMPOSE ps -q app | sort)
    $COMPOSE up -d --no-deps --no-recreate --scale app=$((count + 1)) app >/dev/null 2>&1
    new=$(printf '%s\n' "$($COMPOSE ps -q app | sort)" | grep -vxF "$before" || true)
    [ -n "$new" ] || { echo "no new replica was started" >&2; exit 1; }
    waited=0
    until healthy "$new"; do
        if [ "$waited" -ge "$HEALTH_WAIT" ]; then
            echo "replica $(echo "$new" | cut -c1-12) did not become healthy in ${HEALTH_WAIT}s; the old replicas keep serving" >&2
            exit 1
        fi
        sleep 1
        waited=$((waited + 1))
    done
    docker stop -t "$STOP_GRACE" "$container" >/dev/null
    docker rm "$container" >/dev/null
    echo "replaced replica $(echo "$container" | cut -c1-12) by $(echo "$new" | cut -c1-12) (healthy after ${waited}s)"
done
$COMPOSE up -d --no-deps scheduler >/dev/null 2>&1
$COMPOSE exec -T proxy nginx -s reload
echo "rolling update done: $count replicas replaced"
