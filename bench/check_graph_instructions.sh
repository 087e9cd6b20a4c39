#!/usr/bin/env bash
# Fails when a node of the 100-node chain of 2x2 f32 MatMuls run as a graph costs more than
# MAX_RATIO of the same MatMul called eagerly (Runtime::execute, the same chain), both counted
# by valgrind's callgrind in hxrt_graph_loop: the issue-16 target for graph mode (at most 0.5x
# of eager, bench/RESULTS.md) on a measure that a noisy machine cannot move, unlike the wall
# clock of hxrt_graph_bench. Exits 77 (skipped) without valgrind. Meaningful for Release builds
# only; CTest runs it as graph_instructions_check.
#
#   bench/check_graph_instructions.sh BUILD_DIR|PROGRAM [MAX_RATIO] [RUNS]
#   (PROGRAM: hxrt_graph_loop; MAX_RATIO default 0.5; RUNS default 1)
set -euo pipefail
source "$(dirname "$0")/callgrind_count.sh"
program=$(checked_program "$1" hxrt_graph_loop)
max_ratio=${2:-0.5}
runs=${3:-1}
# Both loops run the chain 1 + 100 x RUNS times, 100 nodes each: the totals compare as they are.
graph=$(callgrind_count "$program" hxrt_graph_matmul_chain "$runs")
eager=$(callgrind_count "$program" hxrt_eager_matmul_chain "$runs")
awk -v g="$graph" -v e="$eager" -v max="$max_ratio" -v n="$(((1 + 100 * runs) * 100))" 'BEGIN {
  if (g == 0 || e == 0) { print "callgrind collected nothing for a loop"; exit 1 }
  ratio = g / e
  printf "2x2 MatMul chain: %.0f instructions per node as a graph, %.0f per eager op: %.3fx",
         g / n, e / n, ratio
  if (ratio > max) { printf ", over the limit of %sx\n", max; exit 1 }
  printf " (limit %sx)\n", max
}'
