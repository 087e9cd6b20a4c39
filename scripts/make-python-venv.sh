#!/usr/bin/env bash
# Makes .cache/python-venv/: a Python virtual environment with the pinned nanobind and
# scikit-build-core (which build the hxrt package), pytest, numpy and ml_dtypes (its tests and
# its bf16 arrays), and onnx (the tests write their models with it; pinned as
# scripts/fetch-onnx-node-tests.sh pins it) and mypy (a test type-checks a script against the
# package's stubs) from PyPI; about 130 MB, nothing outside the folder
# is installed. Does nothing when it is there already. Without PyPI (or python3's venv module)
# it says so, leaves no half-made environment behind, and exits 0: the build leaves the package
# out and its tests skip themselves.
#
#   scripts/make-python-venv.sh          # prints the environment's python on its last line
set -euo pipefail
# shellcheck source=scripts/lib/venv.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/venv.sh"
hxrt_make_venv python-venv "the Python package is not built and its tests are skipped" \
  nanobind==3.1.0 scikit-build-core==1.1.2 pytest==9.2.0 numpy==2.4.6 ml_dtypes==0.6.0 \
  onnx==1.16.2 mypy==2.4.1
