#!/usr/bin/env bash
# Builds the Python package's wheel (pip wheel .), installs it into a folder of its own, moves
# that folder, and imports hxrt from where it now is in a fresh interpreter, with no
# environment variable pointing at anything: the package must find its core and every plugin
# it ships relative to itself, as the installed C++ tree does. Needs the Python environment
# (scripts/make-python-venv.sh); without it, says so and exits 0.
#
#   scripts/check-wheel.sh [WORK_DIR]     # WORK_DIR (default: a temporary folder) keeps the wheel
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
python="$("$root/scripts/make-python-venv.sh" | tail -1)"
if [[ -z $python ]]; then
  echo "check-wheel: skipped: no Python environment (scripts/make-python-venv.sh needs PyPI)"
  exit 0
fi
work="${1:-}"
if [[ -z $work ]]; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
fi
rm -rf "$work/wheel" "$work/installed" "$work/moved"
# The build environment's own nanobind and scikit-build-core (no isolated download), on every
# core (make, where there is no ninja, would build on one).
CMAKE_BUILD_PARALLEL_LEVEL="$(nproc)" "$python" -m pip wheel "$root" --wheel-dir "$work/wheel" --no-deps --no-build-isolation --quiet
"$python" -m pip install --quiet --no-deps --target "$work/installed" "$work"/wheel/hxrt-*.whl
mv "$work/installed" "$work/moved"
cd "$work"
env -u HXRT_PLUGIN_PATH -u HXRT_CONFIG -u HXRT_VISIBLE_DEVICES -u LD_LIBRARY_PATH \
    PYTHONPATH="$work/moved" "$python" - "$work/moved" <<'PY'
import pathlib
import sys

import hxrt

moved = pathlib.Path(sys.argv[1])
assert pathlib.Path(hxrt.__file__).parent == moved / "hxrt", hxrt.__file__
loaded = {report.name: report for report in hxrt.default_runtime().load_report()}
for plugin in ("cpu", "sim", "opencl"):
    assert plugin in loaded and loaded[plugin].loaded, f"plugin {plugin}: {loaded.get(plugin)}"
    assert pathlib.Path(loaded[plugin].path).is_relative_to(moved), loaded[plugin].path
product = hxrt.matmul(hxrt.constant([[1.0, 2.0]]), hxrt.constant([[3.0], [4.0]]))
assert product.numpy().tolist() == [[11.0]]
# The stubs, made at install time from the installed package (python/CMakeLists.txt).
for stub in ("py.typed", "_hxrt.pyi", "__init__.pyi"):
    assert (moved / "hxrt" / stub).is_file(), f"the wheel has no hxrt/{stub}"
package_stub = (moved / "hxrt/__init__.pyi").read_text()
assert "\ndef matmul(a: TensorLike, b: TensorLike, /, *" in package_stub, "no op functions"
print("check-wheel: the wheel, moved, imports hxrt with its plugins "
      f"({', '.join(sorted(loaded))}), runs ops, and has its type stubs")
PY
