#!/usr/bin/env bash
# One whole model through hxrt-run, against ONNX Runtime: makes (or finds) the model
# environment (scripts/make-model-venv.sh), writes the model, its inputs and ONNX Runtime's
# outputs (make_models.py), runs the model with hxrt-run on the CPU on those inputs, and
# compares the outputs (compare_outputs.py). Exit 77 (skipped) without the environment.
# With a DEVICE other than the CPU, the model is asked onto it: the nodes it has kernels for
# run there, the others fall back to the CPU (soft placement), and the placement summary must
# show the device, and the CPU where a node fell back.
# With EXPECT_PLACED set ("LayerNormalization 4"), the summary must count those nodes.
# With DEVICE "any", nothing is asked for: the placer decides (the arguments after DEVICE go to
# hxrt-run: --placer dynamic --config FILE), and the run gets a folder of its own.
#
#   check_model.sh MODEL HXRT_RUN WORK_DIR [DEVICE [HXRT_RUN_ARGS...]]
#   # MODEL: mlp, cnn or transformer
set -euo pipefail
model=$1 hxrt_run=$2 work=$3 device=${4:-/CPU:0}
extra=("${@:5}")
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
"$here/../../scripts/make-model-venv.sh" >/dev/null
python="$here/../../.cache/model-venv/bin/python"
if [[ ! -f "$here/../../.cache/model-venv/complete" ]]; then
  echo "SKIPPED: no model environment (.cache/model-venv: onnx, onnxruntime and numpy from" \
    "PyPI); scripts/make-model-venv.sh makes it where PyPI can be reached"
  exit 77
fi
# The CPU's run where bench/ and the docs look for it; another device's in a folder of its own.
[[ "$device" == /CPU:0 ]] || work="$work/${device//[^A-Za-z0-9]/}"
case_dir="$work/$model"
rm -rf "$case_dir"
mkdir -p "$work"
"$python" "$here/make_models.py" "$work" --models "$model"
inputs=()
for file in "$case_dir"/inputs/*.npy; do
  name=$(basename "$file" .npy)
  inputs+=(--input "$name=$file")
done
asked=(--device "$device")
[[ "$device" == any ]] && asked=()
"$hxrt_run" "$case_dir/model.onnx" "${asked[@]}" --runs 1 "${inputs[@]}" "${extra[@]}" \
  --save-outputs "$case_dir/hxrt" | tee "$case_dir/run.txt"
if [[ "$device" != /CPU:0 && "$device" != any ]]; then
  expected=("device:${device#/}: ")
  grep -q "^  fell back" "$case_dir/run.txt" && expected+=("device:CPU:0: ")
  for placed in "${expected[@]}"; do
    if ! grep -q "^  /job:localhost/replica:0/task:0/$placed" "$case_dir/run.txt"; then
      echo "FAILED: the placement summary shows no node on ${placed%: }: the model was to run" \
        "on $device, and on the CPU where $device has no kernel"
      exit 1
    fi
  done
fi
# EXPECT_PLACED: what the placement summary must show (the ops a pass made, say).
if [[ -n ${EXPECT_PLACED:-} ]] && ! grep -q "^  /job.*($EXPECT_PLACED\|^  /job.*, $EXPECT_PLACED" \
    "$case_dir/run.txt"; then
  echo "FAILED: the placement summary shows no '$EXPECT_PLACED'"
  exit 1
fi
"$python" "$here/compare_outputs.py" "$case_dir"
