#!/usr/bin/env bash
# Runs the analytics ingestion benchmark of docs/performance.md: builds
# plaza, starts it on 127.0.0.1 against DATABASE_URL (default: a fresh
# PostgreSQL database plaza_bench on 127.0.0.1:5432; "sqlite" for a
# temporary SQLite file), runs bench/analytics with the given flags, checks
# every acknowledged id is stored, and stops the server with SIGTERM.
#
# Usage: bash bench/analytics/run.sh [postgres|sqlite] [-clients 50 -batch 10 -duration 60s ...]
# SERVER_DB_PARAMS=k=v&… is appended to the server's PostgreSQL URL (e.g.
# default_query_exec_mode=simple_protocol).
# BENCH_DB names the PostgreSQL database (default plaza_bench) and
# BENCH_PORT the server's port (default 18090), for runs beside others.
# Talks only to 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/../.."
kind=${1:-postgres}; shift || true
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
go build -o "$work/plaza" . 
go build -o "$work/bench" ./bench/analytics
case $kind in
  postgres)
    name=${BENCH_DB:-plaza_bench}
    psql -q -h 127.0.0.1 -U postgres -d postgres -c "DROP DATABASE IF EXISTS $name WITH (FORCE)" -c "CREATE DATABASE $name"
    db=postgres://postgres@127.0.0.1:5432/$name?sslmode=disable ;;
  sqlite) db=sqlite://$work/plaza.db ;;
  *) echo "usage: $0 [postgres|sqlite] [bench flags]" >&2; exit 2 ;;
esac
port=${BENCH_PORT:-18090}
# The per-user limit (100 events/min) and the anonymous limit on sign-in
# (100/h per IP) are raised: a handful of users send the whole load.
# Quote sources are off: the benchmark talks to 127.0.0.1 only.
DATABASE_URL=$db${SERVER_DB_PARAMS:+&$SERVER_DB_PARAMS} ADDR=127.0.0.1:$port PLAZA_ENV=test LOG_LEVEL=warn SEED_DEMO=false \
  QUOTE_SOURCE_ZENQUOTES_URL=off QUOTE_SOURCE_QUOTABLE_URL=off QUOTE_SOURCE_DUMMYJSON_URL=off QUOTE_SOURCE_NINJAS_URL=off \
  RATE_LIMIT_ANALYTICS_EVENTS_PER_MINUTE=100000000 RATE_LIMIT_API_ANONYMOUS=100000 \
  "$work/plaza" serve 2>"$work/serve.log" & pid=$!
for _ in $(seq 1000); do
  [ "$(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:$port/api/health)" = 200 ] && break
  sleep 0.02
done
status=0
"$work/bench" -url http://127.0.0.1:$port -db "$db" "$@" || status=$?
kill -TERM $pid; wait $pid || { echo "plaza exited $?; log:"; tail -20 "$work/serve.log"; }
echo "server log errors: $(grep -c 'level=ERROR' "$work/serve.log" || true)"
exit $status
