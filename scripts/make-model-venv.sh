#!/usr/bin/env bash
# Makes .cache/model-venv/: a Python virtual environment with the pinned onnx, onnxruntime and
# numpy from PyPI, in which tests/whole_models writes its models and runs them in ONNX Runtime,
# and bench/onnx_models.py times them (about 250 MB; nothing outside the folder is installed).
# Does nothing when it is there already. Without PyPI (or python3's venv module) it says so,
# leaves no half-made environment behind, and exits 0: the tests that need it skip themselves.
#
#   scripts/make-model-venv.sh          # prints the environment's python on its last line
set -euo pipefail
# shellcheck source=scripts/lib/venv.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/venv.sh"
# onnx as scripts/fetch-onnx-node-tests.sh pins it; onnxruntime as bench/RESULTS.md measured it.
hxrt_make_venv model-venv "the whole-model tests are skipped" \
  onnx==1.16.2 onnxruntime==1.32.0 numpy==2.4.6
