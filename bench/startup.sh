#!/usr/bin/env bash
# Start-up to the first op with every plugin present, and with each plugin alone: a host app
# (Runtime::create, then a 2x2 MatMul) and hxrt-info as a whole command, each run in a fresh
# process, medians of RUNS runs, with the peak resident memory. The issue-16 target: at most
# 10 ms and 40 MB with every plugin present; the first dropped run fills the OpenCL plugin's
# device cache, so the runs measured list the OpenCL devices from it. Then the same with no
# device cache to read or write (the first start-up after a boot or a change of the OpenCL
# installation, each run discovering the devices), and with no OpenCL platform
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
# A folder where the device cache's file would be: it can be neither read nor replaced, while
# hxrt-info's plugin probe verdicts are kept beside it as usual.
cold_cache=$(mktemp -d)
trap 'rm -rf "$cold_cache"' EXIT
mkdir -p "$cold_cache/hxrt/opencl-devices"
echo "## Start-up with no OpenCL device cache (every run discovers the devices)"
XDG_CACHE_HOME=$cold_cache "$program" --runs "$runs"
echo
echo "## Start-up with no OpenCL platform (OCL_ICD_VENDORS=/nonexistent)"
OCL_ICD_VENDORS=/nonexistent "$program" --runs "$runs"
