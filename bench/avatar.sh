#!/usr/bin/env bash
# Loopback throughput of GET /api/avatar-image: builds plaza, serves it on
# 127.0.0.1 (temporary SQLite file, per-IP limit lifted, access log off,
# quote sources off), and runs wrk with 50 connections, each request a new
# seed. Fails if any answer is not 200.
# Usage: bash bench/avatar.sh [DURATION]   (default 30s; needs wrk: apt-get install wrk)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 2; }
duration=${1:-30s}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
make -s build >/dev/null
port=18091
url=http://127.0.0.1:$port
DATABASE_URL=sqlite://$work/plaza.db ADDR=127.0.0.1:$port PLAZA_ENV=test LOG_LEVEL=warn SEED_DEMO=false \
  RATE_LIMIT_AVATAR_PER_MINUTE=1000000000 \
  QUOTE_SOURCE_ZENQUOTES_URL=off QUOTE_SOURCE_QUOTABLE_URL=off QUOTE_SOURCE_DUMMYJSON_URL=off QUOTE_SOURCE_NINJAS_URL=off \
  bin/plaza serve 2>"$work/serve.log" & pid=$!
for _ in $(seq 1000); do
  [ "$(curl -s -o /dev/null -w '%{http_code}' "$url/api/health")" = 200 ] && break
  sleep 0.01
done
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) before the run"
wrk -t2 -c50 -d5s -s bench/avatar.lua "$url" >/dev/null # warm-up
wrk -t2 -c50 -d"$duration" --latency -s bench/avatar.lua "$url" | tee "$work/wrk.txt"
kill -TERM $pid; wait $pid || true
if grep -q 'Non-2xx' "$work/wrk.txt"; then echo "some answers were not 200" >&2; exit 1; fi
