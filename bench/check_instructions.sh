#!/usr/bin/env bash
# Fails when a tiny eager op through an hxrt::Op handle — the 2x2 f32 MatMul and the Add of
# 16 f32 of count_instructions.sh — costs more instructions of core overhead (the call less its
# kernel) than BUDGET, counted by valgrind's callgrind: a guard against hot-path regressions
# that a noisy machine cannot trip, unlike a timed test. Exits 77 (skipped) without valgrind.
# Meaningful for Release builds only; CTest runs it as eager_instructions_check.
#
#   bench/check_instructions.sh BUILD_DIR|PROGRAM BUDGET [OPS]   (PROGRAM: hxrt_eager_loop;
#                                                               OPS default 2000)
set -euo pipefail
source "$(dirname "$0")/callgrind_count.sh"
program=$(checked_program "$1" hxrt_eager_loop)
budget=$2
ops=${3:-2000}
calls=$((ops + 1000))  # each loop also runs 1000 warm-up calls
status=0
check() {  # check LABEL LOOP KERNEL_PATTERN
  local counts total kernel overhead
  counts=$(callgrind_count "$program" "$2" "$ops" "$3")
  total=${counts% *}
  kernel=${counts#* }
  if ((kernel == 0)); then
    echo "$1: the kernel ($3) was not found in callgrind's listing" >&2
    status=1
    return
  fi
  overhead=$(((total - kernel) / calls))
  if ((overhead > budget)); then
    echo "$1: $overhead instructions of core overhead per op, over the budget of $budget"
    status=1
  else
    echo "$1: $overhead instructions of core overhead per op (budget $budget)"
  fi
}
check "2x2 MatMul, execute(Op, ...)" hxrt_eager_matmul_2x2_by_handle 'guarded_kernel<.*matmul_kernel>'
check "Add of 16 f32, execute(Op, ...)" hxrt_eager_add_16 'guarded_kernel<.*add_kernel>'
exit $status
