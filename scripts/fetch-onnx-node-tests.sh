#!/usr/bin/env bash
# Fetches ONNX's backend node tests (onnx/backend/test/data/node: a model and its inputs and
# expected outputs per op and attribute combination) from the pinned `onnx` wheel on PyPI into
# .cache/onnx-node-tests/<version>/, where tests/onnx_node looks for them. A few MB; nothing
# is installed. Without PyPI it says so and leaves the tests to skip themselves.
set -euo pipefail
ONNX_VERSION=1.16.2
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
target="$root/.cache/onnx-node-tests/$ONNX_VERSION"
if [[ -d "$target/node" ]]; then
  exit 0
fi
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
if ! python3 -m pip download --quiet --only-binary=:all: --no-deps --python-version 3.11 \
    --platform manylinux2014_x86_64 "onnx==$ONNX_VERSION" -d "$scratch" >"$scratch/log" 2>&1; then
  echo "Could not fetch onnx==$ONNX_VERSION from PyPI (its node tests are skipped):" >&2
  tail -3 "$scratch/log" >&2
  exit 0
fi
python3 - "$scratch" "$target" <<'PY'
import pathlib, sys, zipfile
scratch, target = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
prefix = "onnx/backend/test/data/node/"
wheel = zipfile.ZipFile(next(scratch.glob("onnx-*.whl")))
staging = target.with_name(target.name + ".partial")
for name in wheel.namelist():
    if name.startswith(prefix) and not name.endswith("/"):
        out = staging / "node" / name[len(prefix):]
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(wheel.read(name))
staging.rename(target)  # whole or not at all
PY
echo "ONNX $ONNX_VERSION node tests in $target/node"
