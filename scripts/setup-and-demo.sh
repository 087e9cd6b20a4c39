#!/usr/bin/env bash
# From a fresh Debian to a running demo: installs the missing build packages (as root),
# builds hxrt in build/ (Release) and runs the quickstart sample and hxrt-info.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/lib/packages.sh
source scripts/lib/packages.sh

hxrt_install_missing_packages

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$(nproc)"

echo
echo "== build/bin/quickstart"
build/bin/quickstart
echo
echo "== build/bin/hxrt-info"
build/bin/hxrt-info
