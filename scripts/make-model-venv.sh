#!/usr/bin/env bash
# Makes .cache/model-venv/: a Python virtual environment with the pinned onnx, onnxruntime and
# numpy from PyPI, in which tests/whole_models writes its models and runs them in ONNX Runtime,
# and bench/onnx_models.py times them (about 250 MB; nothing outside the folder is installed).
# Does nothing when it is there already. Without PyPI (or python3's venv module) it says so,
# leaves no half-made environment behind, and exits 0: the tests that need it skip themselves.
#
#   scripts/make-model-venv.sh          # prints the environment's python on its last line
set -euo pipefail
# onnx as scripts/fetch-onnx-node-tests.sh pins it; onnxruntime as bench/RESULTS.md measured it.
PACKAGES=(onnx==1.16.2 onnxruntime==1.32.0 numpy==2.4.6)
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.cache/model-venv"
mkdir -p "$root/.cache"
# CTest may start several tests that call this at once: one makes it, the others wait.
exec 9>"$root/.cache/model-venv.lock"
flock 9
if [[ -f "$venv/complete" ]]; then
  echo "$venv/bin/python"
  exit 0
fi
rm -rf "$venv"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
if ! python3 -m venv "$venv" >"$log" 2>&1 ||
    ! "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
      "${PACKAGES[@]}" >>"$log" 2>&1; then
  echo "Could not make the model environment ($venv) with ${PACKAGES[*]} from PyPI" \
    "(the whole-model tests are skipped):" >&2
  tail -3 "$log" >&2
  rm -rf "$venv"
  exit 0
fi
touch "$venv/complete"  # whole or not at all: the tests look for this
echo "$venv/bin/python"
