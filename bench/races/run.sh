#!/usr/bin/env bash
# Re-runs the race rows of issue 27's table (docs/api.md, "Concurrent
# requests") at the issue's sizes, on SQLite and on PostgreSQL at
# 127.0.0.1:5432: each racing test sends its requests together to the real
# app and fails on any answer of 500 or more, on a final state no serial
# order would leave, and on audit entries or counters that do not match
# the rows. Then the race walk fires every unsafe route's sample WALKERS
# times at once (half of them as its delete where there is one).
#
# Usage: bash bench/races/run.sh            # 30 racers, 20 walkers
#        RACERS=50 WALKERS=32 bash bench/races/run.sh
# Exits non-zero when any race went wrong. Talks only to 127.0.0.1.
set -uo pipefail
cd "$(dirname "$0")/../.."
racers=${RACERS:-30}
walkers=${WALKERS:-20}
export REQUIRE_POSTGRES=1
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
go test -count=1 -timeout 30m ./handlers ./models -run '^TestRacing' -racers="$racers" -v >"$log" 2>&1 || status=1
grep -E '^\s*--- (PASS|FAIL)|^(ok|FAIL)\s|answered [5-9][0-9][0-9]' "$log"
go test -count=1 -timeout 30m ./handlers -run '^TestRaceWalk$' -walkers="$walkers" -v >"$log" 2>&1 || status=1
grep -E '^--- (PASS|FAIL)|^(ok|FAIL)\s' "$log"
[ $status = 0 ] && echo "races: $racers racers, race walk: $walkers walkers: no answer of 500 or more, every final state serial" || echo "races: FAILED (above)"
exit $status
