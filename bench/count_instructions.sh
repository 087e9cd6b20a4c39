#!/usr/bin/env bash
# Counts the instructions of tiny eager ops through Runtime::execute on CPU:0 — a 2x2 f32
# MatMul by name and by Op handle, an Add of 16 f32 — and of the direct cblas_sgemm the MatMul
# stands for, with valgrind's callgrind, and prints per op: the total, the kernel's share (the
# CPU plugin's compute function and what it calls) and the core's overhead, the rest. The
# issue-16 budget is 500 instructions of core overhead per op. Repeatable under load, unlike a
# wall clock.
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
calls=$((ops + 1000))
row() {  # row LABEL LOOP KERNEL_PATTERN
  local counts
  counts=$(callgrind_count "$program" "$2" "$ops" "$3")
  awk -v label="$1" -v t="${counts% *}" -v k="${counts#* }" -v n="$calls" 'BEGIN {
    printf "| %s | %.0f | %.0f | %.0f |\n", label, t / n, k / n, (t - k) / n
  }'
}
echo "| per op | total | kernel | core overhead |"
echo "| --- | --- | --- | --- |"
row "2x2 MatMul, execute(\"MatMul\", ...)" hxrt_eager_matmul_2x2 'guarded_kernel<.*matmul_kernel>'
row "2x2 MatMul, execute(Op, ...)" hxrt_eager_matmul_2x2_by_handle 'guarded_kernel<.*matmul_kernel>'
row "Add of 16 f32, execute(Op, ...)" hxrt_eager_add_16 'guarded_kernel<.*add_kernel>'
direct=$(callgrind_count "$program" direct_sgemm_2x2 "$ops")
awk -v d="$direct" -v n="$calls" 'BEGIN {
  printf "| 2x2 MatMul, direct cblas_sgemm | %.0f | | |\n", d / n
}'
