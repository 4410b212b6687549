#!/usr/bin/env bash
# GET /api/og-image side by side, on loopback, one request at a time:
#
#   plaza     `plaza serve` (built from this tree): the whole app, every
#             middleware; a 1200×630 PNG drawn per request by internal/ogimage
#   satori    the same scene laid out by satori and rasterised by resvg-js,
#             on Node's plain http server (bench/og/server.mjs; both pinned by
#             bench/og/package-lock.json)
#
# Both get the same quote and author (Plaza's through &quote=&author=, so its
# quote pool is not involved) and, in a round, the same seeds, each new to the
# server: every request draws a new image. The peer's background comes from a
# port of Plaza's seed → layers mapping, so a seed gives both the same shapes
# and border colour; its avatar is one fixed Plaza avatar (seed=bench), where
# Plaza draws the seed's own (a few µs).
#
# Load: bench/og/client.sh, COUNT sequential requests from one curl process
# on one keep-alive connection, each timed to its last byte; one request at a
# time because an og-image is fetched once per share, and Node renders on one
# thread anyway. curl rather than a Node client: the client's own cost lands
# on both servers alike and narrows the ratio (see client.sh).
# After a warm-up of each, the servers are measured in turn, ROUNDS times,
# the order rotating each round so none is always first. Per round: median
# and p90 of each, and the ratio of the medians satori/Plaza; at the end the
# median of those ratios. An answer other than a 200 with a 1200×630 PNG fails
# the run. Everything it starts is stopped on exit.
#
# Usage: bash bench/og/compare.sh [COUNT] [ROUNDS]   (default 30, 3)
#   WARMUP=5                  requests per server before the first round
#   PLAZA_PORT=18121 PEER_PORT=18122
#   PLAZA_BIN=path            a plaza binary built beforehand (another commit's,
#                             for a before-and-after run) instead of this tree's
#   QUOTE=... AUTHOR=...      the text of every image (default: a Steve Jobs
#                             quote of 113 characters, typical of the pool)
# Needs: Go, Node.js and npm (Debian: apt-get install -y nodejs npm), curl;
# satori and @resvg/resvg-js (with its linux-x64-gnu binary) are installed by
# `npm ci` into bench/og/node_modules (git-ignored). The fonts are the Go
# fonts' TTFs from the module cache (golang.org/x/image, a dependency of
# Plaza), the faces Plaza embeds.
#
# Plaza's settings, and why:
#   DATABASE_URL=sqlite://<temp dir>  self-contained; an og-image request
#                                     reads no database row
#   SEED_DEMO=false                   no demo community: not used here
#   QUOTE_SOURCE_*_URL=off            no outbound traffic; the quote is given
#   RATE_LIMIT_OG_IMAGE_PER_MINUTE=1e9  every request comes from 127.0.0.1
#                                     (default 120 a minute); the limiter still
#                                     counts each one, it just never refuses
#   LOG_LEVEL=info                    the default; the route is quiet (no
#                                     access line for a success)
#   PLAZA_ENV=test                    generated secrets; on this route it
#                                     behaves as production over plain http
#   GOMAXPROCS unset                  all cores, as deployed: Plaza spreads the
#                                     glass blur and PNG deflate over up to 4;
#                                     resvg draws on one thread
# The client, both servers and whatever else runs share the machine. Compare
# runs made on the same quiet machine only.
set -euo pipefail
cd "$(dirname "$0")/../.."

count=${1:-30}
rounds=${2:-3}
warmup=${WARMUP:-5}
quote=${QUOTE:-"The only way to do great work is to love what you do. If you haven't found it yet, keep looking. Don't settle."}
author=${AUTHOR:-Steve Jobs}
declare -A port=([plaza]=${PLAZA_PORT:-18121} [satori]=${PEER_PORT:-18122})
servers=(plaza satori)

. bench/compare-lib.sh
need go "https://go.dev/doc/install"
need node "apt-get install -y nodejs npm"
need npm "apt-get install -y nodejs npm"
need curl "apt-get install -y curl"

base() { echo "http://127.0.0.1:${port[$1]}"; }
code() { curl -s -o /dev/null -w '%{http_code}' "$1" || true; }
# The images' URLs, up to "seed=" (client.sh appends the seed).
declare -A og
og[plaza]="$(base plaza)/api/og-image?direct=true&quote=$(node -p 'encodeURIComponent(process.argv[1])' "$quote")&author=$(node -p 'encodeURIComponent(process.argv[1])' "$author")&seed="
og[satori]="$(base satori)/api/og-image?seed="

for s in "${servers[@]}"; do
  if [ "$(code "$(base "$s")/")" != 000 ]; then echo "compare.sh: 127.0.0.1:${port[$s]} ($s) is already taken" >&2; exit 2; fi
done

fonts="$(go list -m -f '{{.Dir}}' golang.org/x/image)/font/gofont/ttfs"
[ -f "$fonts/Go-Medium.ttf" ] || { echo "compare.sh: no Go fonts in $fonts (go mod download golang.org/x/image)" >&2; exit 1; }

echo "building Plaza; installing satori and resvg-js (npm ci)"
if [ -n "${PLAZA_BIN:-}" ]; then cp "$PLAZA_BIN" "$work/plaza"; else go build -o "$work/plaza" .; fi
(cd bench/og && npm ci --no-audit --no-fund --loglevel=error >"$work/npm.log" 2>&1) \
  || { cat "$work/npm.log" >&2; echo "compare.sh: npm ci failed in bench/og" >&2; exit 1; }

DATABASE_URL="sqlite://$work/plaza.db" ADDR="127.0.0.1:${port[plaza]}" PLAZA_ENV=test LOG_LEVEL=info SEED_DEMO=false \
  RATE_LIMIT_OG_IMAGE_PER_MINUTE=1000000000 \
  QUOTE_SOURCE_ZENQUOTES_URL=off QUOTE_SOURCE_QUOTABLE_URL=off QUOTE_SOURCE_DUMMYJSON_URL=off QUOTE_SOURCE_NINJAS_URL=off \
  "$work/plaza" serve >"$work/plaza.log" 2>&1 &
pids+=($!)
avatar_url="$(base plaza)/api/avatar-image?seed=bench&size=320"
for _ in $(seq 600); do [ "$(code "$avatar_url")" = 200 ] && break; sleep 0.05; done
# The peer's avatar: one of Plaza's, fetched once; the peer embeds it as is.
curl -sf -o "$work/avatar.svg" "$avatar_url" || { echo "compare.sh: plaza did not answer on $(base plaza)" >&2; cat "$work/plaza.log" >&2; exit 1; }

(cd bench/og && FONT_DIR="$fonts" AVATAR="$work/avatar.svg" QUOTE="$quote" AUTHOR="$author" exec node server.mjs "${port[satori]}") >"$work/satori.log" 2>&1 &
pids+=($!)
for _ in $(seq 600); do [ "$(code "$(base satori)/")" = 404 ] && break; sleep 0.05; done
if [ "$(code "$(base satori)/")" != 404 ]; then echo "compare.sh: satori did not start on $(base satori)" >&2; cat "$work/satori.log" >&2; exit 1; fi

# run NAME COUNT PREFIX: "median p90 KiB" of one client run; a bad answer ends the script.
run() { bash bench/og/client.sh "${og[$1]}" "$2" "$3" || { echo "compare.sh: $1 failed (log below)" >&2; cat "$work/$1.log" >&2; exit 1; }; }

echo
echo "machine: $(nproc) cores; $(go version | cut -d' ' -f3); node $(node --version)"
echo "Plaza $("$work/plaza" version 2>/dev/null || cat VERSION); satori $(node -p "require('./bench/og/node_modules/satori/package.json').version"); @resvg/resvg-js $(node -p "require('./bench/og/node_modules/@resvg/resvg-js/package.json').version")"
echo "load average before the warm-up: $(cut -d' ' -f1-3 /proc/loadavg)"
for s in "${servers[@]}"; do run "$s" "$warmup" "warmup" >/dev/null; done
echo "load average after it: $(cut -d' ' -f1-3 /proc/loadavg); measuring $rounds rounds of $count requests each"
echo

declare -A med
ratios=""
for r in $(seq "$rounds"); do
  for i in 0 1; do
    s=${servers[$(((i + r - 1) % 2))]}
    out=$(run "$s" "$count" "round$r")
    read -r m p90 kib <<<"$out"
    med[$s]=$m
    printf 'round %d  %-7s median %8.1f ms   p90 %8.1f ms   PNG %4d KiB\n' "$r" "$s" "$m" "$p90" "$kib"
  done
  ratio=$(awk -v a="${med[satori]}" -v b="${med[plaza]}" 'BEGIN { printf "%.2f", a / b }')
  ratios+="$ratio "
  printf 'round %d  satori/Plaza (medians) %.1f×\n' "$r" "$ratio"
done

median() { tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo
printf 'ratio (satori+resvg / Plaza): %.1f×   (median of the rounds: %s)\n' "$(echo "$ratios" | median)" "${ratios% }"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
