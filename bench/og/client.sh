#!/usr/bin/env bash
# The client of bench/og/compare.sh: COUNT sequential GETs of URL + seed
# (PREFIX-0, PREFIX-1, …), a new seed each time, all from one curl process on
# one keep-alive connection, each timed by curl from sending the request to
# the last byte of the body (%{time_total}).
#
# Why curl: the client's own cost lands on both servers alike, so a slow
# client narrows the measured ratio without telling either server apart.
# Against a fixed 268 KB PNG from a bare Go handler on a 2-core machine,
# Node's http client took 2.7–3.0 ms a request, this script 0.4–0.5 ms
# (docs/performance.md, "curl as the og-image client"). Seeds are put in the
# URL as they are: PREFIX must need no escaping (compare.sh's do not).
#
# Every answer must be 200 with a 1200×630 PNG; anything else ends the run
# (exit 1). Prints: median ms, p90 ms (nearest rank), mean PNG KiB.
#
# Usage: bash client.sh URL COUNT PREFIX   (URL ends in "seed=")
set -euo pipefail

base=${1:?usage: client.sh URL COUNT PREFIX}
count=${2:?usage: client.sh URL COUNT PREFIX}
prefix=${3:?usage: client.sh URL COUNT PREFIX}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

args=()
for i in $(seq 0 $((count - 1))); do args+=(-o "$dir/$i.png" "$base$prefix-$i"); done
curl -sS -w '%{http_code} %{size_download} %{time_total}\n' "${args[@]}" >"$dir/times"

# A PNG's IHDR follows its 8-byte signature: width at byte 16, height at 20.
want="89504e470d0a1a0a0000000d49484452000004b000000276"
i=0
while read -r status size _; do
  got=$(head -c 24 "$dir/$i.png" | od -An -tx1 | tr -d ' \n')
  if [ "$status" != 200 ] || [ "$got" != "$want" ]; then
    echo "client.sh: $base$prefix-$i: status $status, $size bytes: not a 1200×630 PNG" >&2
    exit 1
  fi
  i=$((i + 1))
done <"$dir/times"
[ "$i" = "$count" ] || { echo "client.sh: $i answers of $count" >&2; exit 1; }

kib=$(awk '{ bytes += $2 } END { printf "%.0f", bytes / NR / 1024 }' "$dir/times")
awk '{ print $3 * 1000 }' "$dir/times" | sort -g | awk -v kib="$kib" '{ ms[NR] = $1 } END {
  median = NR % 2 ? ms[(NR + 1) / 2] : (ms[NR / 2] + ms[NR / 2 + 1]) / 2
  p90 = ms[int(0.9 * NR + 0.999999)]
  printf "%.1f %.1f %s\n", median, p90, kib
}'
