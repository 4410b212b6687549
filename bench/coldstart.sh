#!/usr/bin/env bash
# Measures, for the built binary: its size, the cold start on an existing
# database (exec → /api/health answers 200) and the idle RSS after start.
# Usage: bash bench/coldstart.sh [DATABASE_URL]   (default: a temporary SQLite file)
# Talks only to 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
make -s build >/dev/null
bin=bin/plaza
db=${1:-sqlite://$work/plaza.db}
port=18089
url=http://127.0.0.1:$port/api/health
export DATABASE_URL=$db ADDR=127.0.0.1:$port PLAZA_ENV=test LOG_LEVEL=warn BACKUP_DIR=$work/backups
# Quote sources off: the measurement talks to 127.0.0.1 only.
export QUOTE_SOURCE_ZENQUOTES_URL=off QUOTE_SOURCE_QUOTABLE_URL=off QUOTE_SOURCE_DUMMYJSON_URL=off QUOTE_SOURCE_NINJAS_URL=off

wait_healthy() {
  for _ in $(seq 2000); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "$url")" = 200 ] && return 0
    sleep 0.005
  done
  echo "never healthy" >&2; return 1
}

# First start: creates the schema, the admin and the demo community.
"$bin" serve 2>"$work/first.log" & pid=$!
wait_healthy; kill -TERM $pid; wait $pid || true

echo "binary: $(stat -c %s $bin | awk '{printf "%.1f MiB", $1/1048576}') ($bin, stripped, -trimpath)"
for run in 1 2 3 4 5; do
  start=$(date +%s%N)
  "$bin" serve 2>>"$work/run.log" & pid=$!
  wait_healthy
  end=$(date +%s%N)
  echo "cold start $run: $(( (end - start) / 1000000 )) ms to healthy"
  if [ $run = 5 ]; then
    sleep 2
    echo "idle RSS after start: $(ps -o rss= -p $pid | awk '{printf "%.1f MiB", $1/1024}')"
  fi
  kill -TERM $pid; wait $pid || true
done
