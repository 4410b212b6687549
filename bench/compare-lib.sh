# Shared by the side-by-side benchmarks (bench/avatar/compare.sh,
# bench/og/compare.sh), sourced after `set -euo pipefail`: need checks a
# command is installed; $work is a temporary directory, and every process
# whose pid is added to pids is stopped, and $work removed, on exit.

need() { command -v "$1" >/dev/null || { echo "compare.sh: $1 is not installed ($2)" >&2; exit 2; }; }

work=$(mktemp -d)
pids=()
cleanup() {
  local p
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
