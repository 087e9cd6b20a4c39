#!/usr/bin/env bash
# Builds and runs every test twice: a Release build in build/, then a build in build-asan/
# under AddressSanitizer and UndefinedBehaviorSanitizer. Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/lib/packages.sh
source scripts/lib/packages.sh

hxrt_require_packages
jobs=$(nproc)

echo "== Release build (build/)"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs"

echo "== AddressSanitizer + UBSan build (build-asan/)"
# Without the CUDA plugin: the sanitizers see none of its device code, its static CUDA
# runtime and ASan's shadow memory contend for the same address space on a GPU machine
# (ASan then needs protect_shadow_gap=0), and compiling its kernels again would cost several
# minutes of the CI budget for what the Release build already ran.
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DHXRT_SANITIZE=ON \
  -DHXRT_BUILD_BENCH=OFF -DHXRT_WITH_CUDA=OFF
cmake --build build-asan -j"$jobs"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  ctest --test-dir build-asan --output-on-failure -j"$jobs"

echo "== All tests passed (Release and sanitizers)"
