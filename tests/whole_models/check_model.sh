#!/usr/bin/env bash
# One whole model through hxrt-run, against ONNX Runtime: makes (or finds) the model
# environment (scripts/make-model-venv.sh), writes the model, its inputs and ONNX Runtime's
# outputs (make_models.py), runs the model with hxrt-run on the CPU on those inputs, and
# compares the outputs (compare_outputs.py). Exit 77 (skipped) without the environment.
#
#   check_model.sh MODEL HXRT_RUN WORK_DIR     # MODEL: mlp, cnn or transformer
set -euo pipefail
model=$1 hxrt_run=$2 work=$3
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
"$here/../../scripts/make-model-venv.sh" >/dev/null
python="$here/../../.cache/model-venv/bin/python"
if [[ ! -f "$here/../../.cache/model-venv/complete" ]]; then
  echo "SKIPPED: no model environment (.cache/model-venv: onnx, onnxruntime and numpy from" \
    "PyPI); scripts/make-model-venv.sh makes it where PyPI can be reached"
  exit 77
fi
case_dir="$work/$model"
rm -rf "$case_dir"
"$python" "$here/make_models.py" "$work" --models "$model"
inputs=()
for file in "$case_dir"/inputs/*.npy; do
  name=$(basename "$file" .npy)
  inputs+=(--input "$name=$file")
done
"$hxrt_run" "$case_dir/model.onnx" --device /CPU:0 --runs 1 "${inputs[@]}" \
  --save-outputs "$case_dir/hxrt"
"$python" "$here/compare_outputs.py" "$case_dir"
