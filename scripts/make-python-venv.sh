#!/usr/bin/env bash
# Makes .cache/python-venv/: a Python virtual environment with the pinned nanobind and
# scikit-build-core (which build the hxrt package), pytest, numpy and ml_dtypes (its tests and
# its bf16 arrays), and onnx (the tests write their models with it; pinned as
# scripts/fetch-onnx-node-tests.sh pins it) from PyPI; about 100 MB, nothing outside the folder
# is installed. Does nothing when it is there already. Without PyPI (or python3's venv module)
# it says so, leaves no half-made environment behind, and exits 0: the build leaves the package
# out and its tests skip themselves.
#
#   scripts/make-python-venv.sh          # prints the environment's python on its last line
set -euo pipefail
PACKAGES=(nanobind==3.1.0 scikit-build-core==1.1.2 pytest==9.2.0 numpy==2.4.6 ml_dtypes==0.6.0
          onnx==1.16.2)
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.cache/python-venv"
mkdir -p "$root/.cache"
exec 9>"$root/.cache/python-venv.lock"
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
  echo "Could not make the Python environment ($venv) with ${PACKAGES[*]} from PyPI" \
    "(the Python package is not built and its tests are skipped):" >&2
  tail -3 "$log" >&2
  rm -rf "$venv"
  exit 0
fi
touch "$venv/complete"  # whole or not at all: the build looks for this
echo "$venv/bin/python"
