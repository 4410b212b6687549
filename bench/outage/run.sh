#!/usr/bin/env bash
# Re-runs issue 27's outage row (docs/operations.md, "Outages"): builds
# plaza and bench/outage, creates an empty PostgreSQL database
# plaza_outage on 127.0.0.1:5432, and runs the bench against it: 8
# analytics clients and 2 admin readers while the database goes away once.
#
# Usage: bash bench/outage/run.sh [cut|restart] [bench flags]
#   cut (default)  a proxy between Plaza and PostgreSQL is cut for -cut
#                  (2 s): no other client of the server notices.
#   restart        restarts the PostgreSQL cluster on port 5432
#                  (pg_ctlcluster VERSION NAME restart -m fast, as root or
#                  postgres): every client of that server sees the restart.
# BENCH_DB names the database (default plaza_outage), dropped at the end.
# Talks only to 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/../.."
mode=${1:-cut}; shift || true
work=$(mktemp -d)
name=${BENCH_DB:-plaza_outage}
psql_admin() { psql -q -h 127.0.0.1 -U postgres -d postgres "$@"; }
trap 'psql_admin -c "DROP DATABASE IF EXISTS $name WITH (FORCE)" || true; rm -rf "$work"' EXIT
go build -o "$work/plaza" .
go build -o "$work/bench" ./bench/outage
psql_admin -c "DROP DATABASE IF EXISTS $name WITH (FORCE)" -c "CREATE DATABASE $name"
db="postgres://postgres@127.0.0.1:5432/$name?sslmode=disable"
case $mode in
  cut) "$work/bench" -plaza "$work/plaza" -db "$db" "$@" ;;
  restart)
    cluster=$(pg_lsclusters -h | awk '$3 == 5432 { print $1 " " $2; exit }')
    [ -n "$cluster" ] || { echo "no PostgreSQL cluster on port 5432 (pg_lsclusters)" >&2; exit 1; }
    "$work/bench" -plaza "$work/plaza" -db "$db" -restart "pg_ctlcluster $cluster restart -m fast" "$@" ;;
  *) echo "usage: $0 [cut|restart] [bench flags]" >&2; exit 2 ;;
esac
