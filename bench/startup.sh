#!/usr/bin/env bash
# Start-up to the first op with every plugin present, and with each plugin alone: a host app
# (Runtime::create, then a 2x2 MatMul) and hxrt-info as a whole command, each run in a fresh
# process, medians of RUNS runs, with the peak resident memory. The issue-16 target: at most
# 10 ms and 40 MB with every plugin present. Then the same with no OpenCL platform
# (OCL_ICD_VENDORS pointing nowhere: the ICD loader loads no vendor library), which is what a
# machine without an OpenCL driver sees.
#
#   bench/startup.sh [BUILD_DIR] [RUNS]   (defaults: build, 21; a Release build)
set -euo pipefail
build=${1:-build}
runs=${2:-21}
program=$build/bin/hxrt_startup
if [[ ! -x $program ]]; then
  echo "$program is missing: build the target hxrt_startup (HXRT_BUILD_BENCH=ON)" >&2
  exit 1
fi
echo "## Start-up, the machine's OpenCL platforms as installed"
"$program" --runs "$runs"
echo
echo "## Start-up with no OpenCL platform (OCL_ICD_VENDORS=/nonexistent)"
OCL_ICD_VENDORS=/nonexistent "$program" --runs "$runs"
