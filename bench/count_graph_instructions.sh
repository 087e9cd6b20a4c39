#!/usr/bin/env bash
# Counts the instructions the graph executor spends per node, with valgrind's callgrind: runs
# of hxrt_graph_loop's graphs of 10,000 Relus of one float (a chain, and side by side into one
# AddN), the same chain through Runtime::execute, and the CPU plugin's Relu kernel itself,
# which every node calls. Repeatable under load, unlike a wall clock.
#
#   bench/count_graph_instructions.sh [BUILD_DIR] [RUNS]   (defaults: build, 10; a Release build)
set -euo pipefail
build=${1:-build}
runs=${2:-10}
program=$build/bin/hxrt_graph_loop
if [[ ! -x $program ]]; then
  echo "$program is missing: build the target hxrt_graph_loop (HXRT_BUILD_BENCH=ON)" >&2
  exit 1
fi
command -v valgrind >/dev/null || { echo "valgrind is missing: apt-get install valgrind" >&2; exit 1; }

# Each loop function runs twice (1 warm-up run, then RUNS); a run of the chain is 10,000 nodes
# (kOverheadNodes in bench/graph_workloads.hpp), of the wide graph 10,001 (the AddN too).
source "$(dirname "$0")/callgrind_count.sh"
chain=$(callgrind_count "$program" hxrt_graph_relu_chain "$runs")
wide=$(callgrind_count "$program" hxrt_graph_relu_wide "$runs")
eager=$(callgrind_count "$program" hxrt_eager_relu_chain "$runs")
# Every Relu of the three loops: 3 x 10,000 per run.
kernel=$(callgrind_count "$program" hxcpu::relu_kernel "$runs")
matmul_graph=$(callgrind_count "$program" hxrt_graph_matmul_chain "$runs")
matmul_eager=$(callgrind_count "$program" hxrt_eager_matmul_chain "$runs")
awk -v c="$chain" -v w="$wide" -v e="$eager" -v k="$kernel" -v r="$((runs + 1))" \
  -v mg="$matmul_graph" -v me="$matmul_eager" 'BEGIN {
  printf "Relu chain, Executable::run: %.0f instructions per node\n", c / (r * 10000)
  printf "Relu wide, Executable::run: %.0f instructions per node\n", w / (r * 10001)
  printf "Relu chain, Runtime::execute: %.0f instructions per op\n", e / (r * 10000)
  printf "the CPU Relu kernel itself: %.0f instructions per call\n", k / (r * 30000)
  # The MatMul loops run 100 times as often (1 warm-up run, then 100 x RUNS), 100 nodes each.
  m = (1 + 100 * (r - 1)) * 100
  printf "2x2 MatMul chain of 100, Executable::run: %.0f instructions per node\n", mg / m
  printf "2x2 MatMul chain of 100, Runtime::execute: %.0f instructions per op\n", me / m
}'
