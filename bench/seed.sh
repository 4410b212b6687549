#!/bin/sh
# Seeds a fresh PostgreSQL database with 1M users and 2M posts (or
# PLAZA_SEED_USERS / PLAZA_SEED_POSTS) through BenchmarkSeedPostgres, prints
# the timings and drops the database again. See docs/performance.md, "Seeding".
#
#   bench/seed.sh                      # server at 127.0.0.1:5432, user postgres
#   PGSERVER=postgres://u:p@host:5432 bench/seed.sh
set -eu

cd "$(dirname "$0")/.."
server=${PGSERVER:-postgres://postgres@127.0.0.1:5432}
db=plaza_seedbench_$$

psql "$server/postgres" -qc "CREATE DATABASE $db"
trap 'psql "$server/postgres" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)"' EXIT INT TERM

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(psql "$server/postgres" -Atc 'SHOW server_version') PostgreSQL"
PLAZA_SEED_BENCH_URL="$server/$db?sslmode=disable" \
	go test ./bench/ -run '^$' -bench '^BenchmarkSeedPostgres$' -benchtime=1x -timeout 30m -v
