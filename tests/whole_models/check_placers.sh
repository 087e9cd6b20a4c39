#!/usr/bin/env bash
# The dynamic placer on a whole model, over the CPU, the OpenCL device (PoCL in CI) and two
# sim GPUs whose performance model (sims_slow_at_gemm.json) makes their Gemm slow: the simple
# placer, which goes by device priority, puts the model's Gemms on GPU:0; the dynamic one,
# which measures, must keep them off the sims, run the model within ONNX Runtime's tolerance
# (check_model.sh) and take no longer a run than the simple one (the gap is some 100x, so the
# check holds on a loaded machine). Exit 77 (skipped) as check_model.sh.
#
#   check_placers.sh MODEL HXRT_RUN WORK_DIR
set -euo pipefail
model=$1 hxrt_run=$2 work=$3
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
config="$here/sims_slow_at_gemm.json"
status=0
"$here/check_model.sh" "$model" "$hxrt_run" "$work/dynamic" any --placer dynamic \
  --config "$config" || status=$?
[[ $status -eq 0 ]] || exit $status
case_dir="$work/dynamic/any/$model"
inputs=()
for file in "$case_dir"/inputs/*.npy; do
  inputs+=(--input "$(basename "$file" .npy)=$file")
done
median_ms() {  # the median of hxrt-run's "Run:" line
  sed -n 's/^Run: .* median \([0-9.]*\) ms.*/\1/p' "$1"
}
# The dynamic placer's 40 runs hold its first check, which runs the simple placer's placement
# for 10 runs to compare the two measured (docs/dynamic-placer.md): the median is its own.
for placer in simple dynamic; do
  runs=5
  [[ $placer == dynamic ]] && runs=40
  "$hxrt_run" "$case_dir/model.onnx" --placer "$placer" --config "$config" --runs $runs \
    "${inputs[@]}" > "$work/$placer.txt"
  echo "== $placer placer"
  grep -A4 "^Placement:" "$work/$placer.txt"
  grep "^Run:" "$work/$placer.txt"
done
gpu_gemms='device:GPU:[0-9]*: .*Gemm'
if ! grep -q "$gpu_gemms" "$work/simple.txt"; then
  echo "FAILED: the simple placer put no Gemm on a sim GPU; the test's premise is gone"
  exit 1
fi
if grep -q "$gpu_gemms" "$work/dynamic.txt"; then
  echo "FAILED: the dynamic placer put a Gemm on a sim GPU, whose model makes it the slowest"
  exit 1
fi
simple=$(median_ms "$work/simple.txt") dynamic=$(median_ms "$work/dynamic.txt")
if ! awk -v d="$dynamic" -v s="$simple" 'BEGIN { exit !(d <= s) }'; then
  echo "FAILED: a run under the dynamic placer took $dynamic ms, under the simple $simple ms"
  exit 1
fi
echo "dynamic placer: $dynamic ms a run, simple placer: $simple ms"
