#!/usr/bin/env bash
# Builds and runs the tests in three builds, each in its own folder, and prints each one's wall
# time. Exits non-zero on the first failure.
#
#   build/       the default compiler (GCC on Debian; the build setup-and-demo.sh makes),
#                Release, with the CUDA plugin when a toolkit is found: every test
#   build-asan/  clang, AddressSanitizer + UBSan, no CUDA, the fuzz targets: every test,
#                the fuzz targets' short runs and the Python package's (its runtime
#                preloaded into Python, python/CMakeLists.txt) among them
#   build-tsan/  clang, ThreadSanitizer, no CUDA: only the tests labelled `threads`
#                (hxrt_add_test ... THREADS), and only what they need is built
#
# The sanitizer builds leave the CUDA plugin out: the sanitizers see none of its device code,
# its static CUDA runtime and ASan's shadow memory contend for the same address space on a GPU
# machine, and compiling its kernels again would cost minutes of CI for what the Release build
# already ran.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/lib/packages.sh
source scripts/lib/packages.sh

hxrt_require_packages
jobs=$(nproc)
# Each build links with LLVM's lld: about 7 times faster than GNU ld on a test program that
# links the core statically with debug information (3.1 s against 0.43 s), and the three builds
# link some 150 programs and plugins.
fast_linker=(-DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld -DCMAKE_SHARED_LINKER_FLAGS=-fuse-ld=lld
             -DCMAKE_MODULE_LINKER_FLAGS=-fuse-ld=lld)

# phase <title>: prints the title and starts the phase's clock; the next call (or `phase_end`)
# prints how long the previous phase took.
phase_title=""
phase_start=0
phase_end() {
  if [[ -n $phase_title ]]; then
    echo "== $phase_title: $((SECONDS - phase_start)) s"
  fi
}
phase() {
  phase_end
  phase_title=$1
  phase_start=$SECONDS
  echo "== $phase_title"
}

# ONNX's backend node tests (tests/onnx_node), from the pinned onnx wheel on PyPI; without
# PyPI they skip themselves.
phase "ONNX node test data (.cache/onnx-node-tests/)"
scripts/fetch-onnx-node-tests.sh

# onnx, onnxruntime and numpy from PyPI for the whole-model tests (tests/whole_models), made
# here rather than by the first of those tests CTest starts; without PyPI they skip themselves.
phase "Model environment (.cache/model-venv/)"
scripts/make-model-venv.sh >/dev/null

# nanobind, scikit-build-core, pytest, numpy and ml_dtypes from PyPI for the Python package
# (python/, tests/python); without PyPI the package is not built and its test says so.
phase "Python environment (.cache/python-venv/)"
python_package=(-DHXRT_PYTHON=OFF)
if [[ -n $(scripts/make-python-venv.sh) ]]; then
  python_package=(-DHXRT_PYTHON=ON -DPython_EXECUTABLE="$PWD/.cache/python-venv/bin/python")
fi

phase "Release build (build/)"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "${python_package[@]}" "${fast_linker[@]}"
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs"

# The Python package as pip builds it: a wheel of the core, the plugins and the extension,
# installed elsewhere and moved, imports with every plugin (docs/python.md).
if [[ ${python_package[0]} == -DHXRT_PYTHON=ON ]]; then
  phase "Python wheel (pip wheel ., installed, moved, imported)"
  scripts/check-wheel.sh
fi

# Line tables are all the debug information a sanitizer's report needs (file and line of every
# frame, inlined ones too); full -g costs a tenth more compile time and a larger link.
lines_only=-gline-tables-only

phase "clang AddressSanitizer + UBSan build with the fuzz targets (build-asan/)"
CC=clang CXX=clang++ cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DHXRT_SANITIZE=address \
  -DCMAKE_C_FLAGS_DEBUG="$lines_only" -DCMAKE_CXX_FLAGS_DEBUG="$lines_only" \
  -DHXRT_FUZZ=ON -DHXRT_BUILD_BENCH=OFF -DHXRT_WITH_CUDA=OFF "${python_package[@]}" \
  "${fast_linker[@]}"
cmake --build build-asan -j"$jobs"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  ctest --test-dir build-asan --output-on-failure -j"$jobs"

# RelWithDebInfo at -O1: ThreadSanitizer runs several times slower at -O0, and it instruments
# the optimised code's memory accesses, so it finds the same races (hxrt has no assert() that
# only a Debug build would keep); -O2 compiles a fifth slower for tests that run hardly faster.
tsan_flags="-O1 $lines_only -DNDEBUG"
phase "clang ThreadSanitizer build of the tests labelled threads (build-tsan/)"
CC=clang CXX=clang++ cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="$tsan_flags" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$tsan_flags" \
  -DHXRT_SANITIZE=thread -DHXRT_BUILD_BENCH=OFF -DHXRT_WITH_CUDA=OFF "${fast_linker[@]}"
cmake --build build-tsan -j"$jobs" --target hxrt_thread_tests
# (The tests run with the TSAN_OPTIONS of cmake/sanitizers.cmake, tests/tsan_suppressions.txt.)
ctest --test-dir build-tsan --output-on-failure -j"$jobs" -L threads
phase_end

echo "== All tests passed (Release, clang ASan + UBSan, clang TSan)"
