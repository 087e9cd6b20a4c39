#!/usr/bin/env bash
# Makes .cache/torch-venv/: a Python virtual environment with the pinned torch from PyPI (and
# NumPy, ml_dtypes and pytest), in which bench/python_overhead.py measures hxrt beside PyTorch
# and tests/python's PyTorch cases run. PyPI's torch brings CUDA's libraries with it: about
# 5 GB, a few minutes, so nothing in CI makes it; it is for side-by-side measures only, as the
# model environment is for ONNX Runtime. Does nothing when it is there already; without PyPI it
# says so and exits 0.
#
#   scripts/make-torch-venv.sh          # prints the environment's python on its last line
set -euo pipefail
# shellcheck source=scripts/lib/venv.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/venv.sh"
hxrt_make_venv torch-venv "PyPI is needed for the side-by-side measures with PyTorch" \
  torch==2.15.0 numpy==2.4.6 ml_dtypes==0.6.0 pytest==9.2.0
