#!/usr/bin/env bash
# GET /api/avatar-image side by side, on loopback, under the same load:
#
#   plaza     `plaza serve` (bin/plaza from `make build`): the whole app, every
#             middleware, a fresh avatar rendered per request
#   dicebear  DiceBear's "adventurer" style on Node's plain http server
#             (bench/avatar/server.mjs, @dicebear/* pinned by its package-lock)
#   bare      a bare Go net/http handler writing one fixed Plaza avatar of
#             typical length with Plaza's headers (bench/avatar/bare): the floor
#
# Load: wrk, 2 threads, 50 keep-alive connections, every request a new seed
# (bench/avatar.lua), size=200. After a warm-up of each, the servers are
# measured in turn, ROUNDS times, the order rotating each round so none is
# always first; then req/s per round, the median, latency, and the ratios of
# the medians Plaza/DiceBear and Plaza/bare. Any answer other than 200 fails
# the run. Everything it starts is stopped on exit.
#
# Usage: bash bench/avatar/compare.sh [DURATION] [ROUNDS]   (default 10s, 3)
#   WARMUP=3s                 warm-up per server before the first round
#   PLAZA_LOG_LEVEL=info      Plaza's default; the avatar route is quiet (no access line
#                             for a success), so info costs nothing here
#   PLAZA_PORT=18101 DICEBEAR_PORT=18102 BARE_PORT=18103
# Needs: Go, wrk (Debian: apt-get install -y wrk), Node.js and npm (Debian:
# apt-get install -y nodejs npm); the DiceBear packages are installed by
# `npm ci` into bench/avatar/node_modules (git-ignored).
#
# Plaza's settings, and why:
#   DATABASE_URL=sqlite://<temp dir>  self-contained; an anonymous avatar
#                                     request reads no database row anyway
#   SEED_DEMO=false                   no demo community: not used here
#   QUOTE_SOURCE_*_URL=off            no outbound traffic (the og-image quote
#                                     pool would otherwise poll public services)
#   RATE_LIMIT_AVATAR_PER_MINUTE=1e9  every request comes from 127.0.0.1; the
#                                     limiter still counts each one, it just
#                                     never refuses
#   LOG_LEVEL=info                    the default, as deployed: the avatar route
#                                     writes access lines only for failures
#   PLAZA_ENV=test                    generated secrets; on this route it
#                                     behaves as production over plain http
#   GOMAXPROCS unset                  all cores, as deployed
# The three servers and wrk share the machine: on 2 cores, wrk takes a good
# part of the CPU, and Node's plain server uses one core by design. Compare
# runs made on the same quiet machine only.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD

duration=${1:-10s}
rounds=${2:-3}
warmup=${WARMUP:-3s}
log_level=${PLAZA_LOG_LEVEL:-info}
declare -A port=([plaza]=${PLAZA_PORT:-18101} [dicebear]=${DICEBEAR_PORT:-18102} [bare]=${BARE_PORT:-18103})
servers=(plaza dicebear bare)

. bench/compare-lib.sh
need wrk "apt-get install -y wrk"
need node "apt-get install -y nodejs npm"
need npm "apt-get install -y nodejs npm"
need go "https://go.dev/doc/install"
need curl "apt-get install -y curl"

url() { echo "http://127.0.0.1:${port[$1]}"; }
probe() { curl -s -o /dev/null -w '%{http_code}' "$(url "$1")/api/avatar-image?seed=probe&size=200" || true; }

for s in "${servers[@]}"; do
  if [ "$(probe "$s")" != 000 ]; then echo "compare.sh: 127.0.0.1:${port[$s]} ($s) is already taken" >&2; exit 2; fi
done

echo "building Plaza and the bare server; installing DiceBear (npm ci)"
make -s build >/dev/null
go build -o "$work/bare" ./bench/avatar/bare
(cd bench/avatar && npm ci --no-audit --no-fund --loglevel=error >"$work/npm.log" 2>&1) \
  || { cat "$work/npm.log" >&2; echo "compare.sh: npm ci failed in bench/avatar" >&2; exit 1; }

DATABASE_URL="sqlite://$work/plaza.db" ADDR="127.0.0.1:${port[plaza]}" PLAZA_ENV=test LOG_LEVEL=$log_level SEED_DEMO=false \
  RATE_LIMIT_AVATAR_PER_MINUTE=1000000000 \
  QUOTE_SOURCE_ZENQUOTES_URL=off QUOTE_SOURCE_QUOTABLE_URL=off QUOTE_SOURCE_DUMMYJSON_URL=off QUOTE_SOURCE_NINJAS_URL=off \
  bin/plaza serve 2>"$work/plaza.log" &
pids+=($!)
(cd bench/avatar && exec node server.mjs "${port[dicebear]}") 2>"$work/dicebear.log" &
pids+=($!)
"$work/bare" -addr "127.0.0.1:${port[bare]}" 2>"$work/bare.log" &
pids+=($!)

for s in "${servers[@]}"; do
  for _ in $(seq 600); do [ "$(probe "$s")" = 200 ] && break; sleep 0.05; done
  if [ "$(probe "$s")" != 200 ]; then
    echo "compare.sh: $s did not answer 200 on $(url "$s")" >&2; cat "$work/$s.log" >&2; exit 1
  fi
done

echo
echo "machine: $(nproc) cores; $(go version | cut -d' ' -f3); node $(node --version); $(wrk -v 2>&1 | head -1 | cut -d' ' -f1-2)"
echo "DiceBear $(cd bench/avatar && node -p "require('./node_modules/@dicebear/core/package.json').version") (adventurer); Plaza $(bin/plaza version 2>/dev/null || cat VERSION); Plaza LOG_LEVEL=$log_level"
printf '%-9s %8s %13s %s\n' server headers "header bytes" "body bytes (seed=probe, size=200)"
declare -A names
for s in "${servers[@]}"; do
  curl -s -D "$work/$s.headers" -o "$work/$s.body" "$(url "$s")/api/avatar-image?seed=probe&size=200"
  names[$s]=$(tr -d '\r' <"$work/$s.headers" | sed -n 's/^\([A-Za-z-]*\):.*/\1/p' | grep -viE '^(date|connection|keep-alive)$' | sort -f | tr '\n' ' ')
  printf '%-9s %8s %13s %s\n' "$s" "$(echo "${names[$s]}" | wc -w)" "$(wc -c <"$work/$s.headers")" "$(wc -c <"$work/$s.body")"
  grep -qi '^content-type: image/svg+xml' "$work/$s.headers" || { echo "compare.sh: $s does not answer image/svg+xml" >&2; exit 1; }
  grep -qi '^cache-control: no-cache, no-store, must-revalidate' "$work/$s.headers" || { echo "compare.sh: $s sends another Cache-Control" >&2; exit 1; }
done
if [ "${names[plaza]}" != "${names[bare]}" ]; then
  echo "warning: Plaza's headers have changed; update plazaHeaders in bench/avatar/bare/main.go" >&2
  echo "  plaza: ${names[plaza]}" >&2; echo "  bare:  ${names[bare]}" >&2
fi
echo

# run NAME DURATION OUT: one wrk run against a server.
run() {
  wrk -t2 -c50 -d"$2" --latency -s bench/avatar.lua "$(url "$1")" -- 200 >"$3" 2>&1
  if grep -qE 'Non-2xx|Socket errors' "$3"; then
    echo "compare.sh: $1 had errors or answers other than 200:" >&2; grep -E 'Non-2xx|Socket errors' "$3" >&2
    bad=1
  fi
}
# ms LINE-PREFIX FILE: a wrk latency percentile in milliseconds.
ms() { awk -v p="$1" '$1 == p { v = $2; u = v; gsub(/[0-9.]/, "", u); sub(/[a-z]+$/, "", v);
  f = (u == "us") ? 0.001 : (u == "s") ? 1000 : 1; printf "%.2f", v * f; exit }' "$2"; }
rps() { awk '/^Requests\/sec:/ { printf "%.0f", $2 }' "$1"; }

bad=0
echo "load average before the warm-up: $(cut -d' ' -f1-3 /proc/loadavg)"
for s in "${servers[@]}"; do run "$s" "$warmup" "$work/warmup-$s.txt"; done
echo "load average after it: $(cut -d' ' -f1-3 /proc/loadavg); measuring $rounds rounds of $duration each"

declare -A results p50s p99s
for r in $(seq "$rounds"); do
  for i in 0 1 2; do
    s=${servers[$(((i + r - 1) % 3))]}
    out="$work/round$r-$s.txt"
    run "$s" "$duration" "$out"
    results[$s]+="$(rps "$out") "
    p50s[$s]+="$(ms 50% "$out") "
    p99s[$s]+="$(ms 99% "$out") "
    printf 'round %d  %-9s %8s req/s  p50 %6s ms  p99 %7s ms\n' "$r" "$s" "$(rps "$out")" "$(ms 50% "$out")" "$(ms 99% "$out")"
  done
done

median() { tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo
printf '%-9s %-30s %12s %10s %10s\n' server "req/s per round" "median req/s" "p50 ms" "p99 ms"
declare -A med
for s in "${servers[@]}"; do
  med[$s]=$(echo "${results[$s]}" | median)
  printf '%-9s %-30s %12.0f %10.2f %10.2f\n' "$s" "${results[$s]}" "${med[$s]}" "$(echo "${p50s[$s]}" | median)" "$(echo "${p99s[$s]}" | median)"
done
echo
awk -v p="${med[plaza]}" -v d="${med[dicebear]}" -v b="${med[bare]}" 'BEGIN {
  printf "Plaza/DiceBear: %.2f   Plaza/bare: %.2f   (ratios of median req/s)\n", p / d, p / b }'
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "$bad" != 0 ]; then echo "compare.sh: some answers were not 200 (see above)" >&2; exit 1; fi
