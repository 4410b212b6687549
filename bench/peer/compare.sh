#!/usr/bin/env bash
# Plaza and PocketBase side by side (issue 26; docs/performance.md, "Plaza and PocketBase
# side by side"): the versioned admin users list, its search and its sort by post count,
# against a running PocketBase and two running Plazas (SQLite, PostgreSQL) that hold the
# same users. 10 clients, three alternating rounds (every query against every server in
# turn, then again), req/s and p99 per cell, then a table over all rounds.
#
# This script builds and starts nothing: docs/performance.md says how to get a PocketBase
# with the users loaded and how to serve the Plazas without rate limits.
#
# Usage: bash bench/peer/compare.sh PB_URL PLAZA_SQLITE_URL PLAZA_PG_URL
#   PLAZA_SQLITE_TOKEN, PLAZA_PG_TOKEN   super admin tokens (`plaza token create --email …
#                                        --permissions admin:read,admin:write`), required
#   PB_TOKEN                             a PocketBase superuser token, or instead
#   PB_EMAIL, PB_PASSWORD                a superuser to sign in with
#   CLIENTS=10 ROUNDS=3 DURATION=8s WARMUP=1s USERS=100000
# Any answer other than 200 is counted and shown beside its cell.
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ $# -ne 3 ]; then
	sed -n '11,17p' "$0" >&2
	exit 2
fi
pb=$1 sqlite=$2 pg=$3
: "${PLAZA_SQLITE_TOKEN:?set PLAZA_SQLITE_TOKEN}" "${PLAZA_PG_TOKEN:?set PLAZA_PG_TOKEN}"
if [ -z "${PB_TOKEN:-}" ]; then
	: "${PB_EMAIL:?set PB_TOKEN, or PB_EMAIL and PB_PASSWORD}" "${PB_PASSWORD:?set PB_PASSWORD}"
	PB_TOKEN=$(curl -fsS -X POST -H 'Content-Type: application/json' \
		-d "{\"identity\":\"$PB_EMAIL\",\"password\":\"$PB_PASSWORD\"}" \
		"$pb/api/collections/_superusers/auth-with-password" | sed -E 's/.*"token":"([^"]+)".*/\1/')
fi
export PB_TOKEN PLAZA_SQLITE_TOKEN PLAZA_PG_TOKEN

bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/peer" ./bench/peer

echo "commit $(git rev-parse --short HEAD), $(nproc) cores; before: $(uptime)"
"$bin/peer" -pb "$pb" -sqlite "$sqlite" -pg "$pg" -clients "${CLIENTS:-10}" -rounds "${ROUNDS:-3}" \
	-duration "${DURATION:-8s}" -warmup "${WARMUP:-1s}" -users "${USERS:-100000}" -terms bench/peer/terms.txt
echo "after: $(uptime)"
