#!/usr/bin/env bash
# What a running timeline trace costs per eager op, in instructions (callgrind): the 2x2
# MatMul of hxrt_eager_loop untraced, then traced (hxrt_trace_loop), and their difference.
# Both loops run OPS + 1000 ops (a warm-up first); the events must fit trace.max_events.
#
#   bench/count_trace_instructions.sh [BUILD_DIR] [OPS]   (defaults: build, 10000; Release)
set -euo pipefail
build=${1:-build}
ops=${2:-10000}
for program in hxrt_eager_loop hxrt_trace_loop; do
  [[ -x $build/bin/$program ]] || { echo "$build/bin/$program is missing: build it (HXRT_BUILD_BENCH=ON)" >&2; exit 1; }
done
command -v valgrind >/dev/null || { echo "valgrind is missing: apt-get install valgrind" >&2; exit 1; }

source "$(dirname "$0")/callgrind_count.sh"
off=$(callgrind_count "$build/bin/hxrt_eager_loop" hxrt_eager_matmul_2x2 "$ops")
on=$(callgrind_count "$build/bin/hxrt_trace_loop" hxrt_traced_matmul_2x2 "$ops")
awk -v off="$off" -v on="$on" -v n="$((ops + 1000))" 'BEGIN {
  printf "2x2 MatMul, trace off: %.0f instructions per op\n", off / n
  printf "2x2 MatMul, trace on:  %.0f instructions per op\n", on / n
  printf "recording costs %.0f instructions per op\n", (on - off) / n
}'
