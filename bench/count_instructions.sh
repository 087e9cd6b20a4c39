#!/usr/bin/env bash
# Counts the instructions of one tiny eager op (a 2x2 f32 MatMul through Runtime::execute on
# CPU:0) and of the direct cblas_sgemm it stands for, with valgrind's callgrind, and prints
# both per op and their ratio. Repeatable under load, unlike a wall clock.
#
#   bench/count_instructions.sh [BUILD_DIR] [OPS]   (defaults: build, 10000; a Release build)
set -euo pipefail
build=${1:-build}
ops=${2:-10000}
program=$build/bin/hxrt_eager_loop
if [[ ! -x $program ]]; then
  echo "$program is missing: build the target hxrt_eager_loop (HXRT_BUILD_BENCH=ON)" >&2
  exit 1
fi
command -v valgrind >/dev/null || { echo "valgrind is missing: apt-get install valgrind" >&2; exit 1; }

# Each loop function runs twice (1000 warm-up ops, then OPS), so a total covers OPS + 1000 calls.
source "$(dirname "$0")/callgrind_count.sh"
eager=$(callgrind_count "$program" hxrt_eager_matmul_2x2 "$ops")
direct=$(callgrind_count "$program" direct_sgemm_2x2 "$ops")
calls=$((ops + 1000))
awk -v e="$eager" -v d="$direct" -v n="$calls" 'BEGIN {
  printf "2x2 MatMul, Runtime::execute: %.0f instructions per op\n", e / n
  printf "2x2 MatMul, direct cblas_sgemm: %.0f instructions per op\n", d / n
  printf "ratio: %.2fx\n", e / d
}'
