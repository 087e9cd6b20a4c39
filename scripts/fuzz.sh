#!/usr/bin/env bash
# Runs the libFuzzer targets of tests/fuzz for a given time each and reports, per target, the
# inputs run, the rate and whether anything was found. Exits non-zero on a finding.
#
#   scripts/fuzz.sh [-t SECONDS] [-b BUILD_DIR] [TARGET...]
#
#   -t SECONDS   how long each target runs (default 60)
#   -b BUILD_DIR the fuzz build (default build-fuzz), configured with clang, ASan + UBSan and
#                HXRT_FUZZ=ON when it has no CMakeCache.txt yet, and brought up to date
#   TARGET       config_fuzz, device_name_fuzz, execute_fuzz, plugin_table_fuzz,
#                placement_json_fuzz, cost_model_fuzz, onnx_model_fuzz (default: all)
#
# Each target starts from a scratch copy of its seeds (tests/fuzz/corpus/<target>/), so the
# seeds in the repository are never changed; what a run adds stays in the scratch folder,
# printed at the end. A finding's reproducer is written to BUILD_DIR/tests/fuzz/<target>.findings/;
# rerun it with `BUILD_DIR/bin/<target> <file>`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

seconds=60
build=build-fuzz
while getopts "t:b:" flag; do
  case $flag in
    t) seconds=$OPTARG ;;
    b) build=$OPTARG ;;
    *) sed -n '2,16p' "$0" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
  targets=(config_fuzz device_name_fuzz execute_fuzz plugin_table_fuzz placement_json_fuzz
           cost_model_fuzz onnx_model_fuzz)
fi
for target in "${targets[@]}"; do
  if [[ ! -d tests/fuzz/corpus/$target ]]; then
    echo "fuzz.sh: no target '$target'; the targets are the folders of tests/fuzz/corpus" >&2
    exit 2
  fi
done

if [[ ! -f $build/CMakeCache.txt ]]; then
  # Debug keeps every check; -O1 runs a few times more inputs per second than -O0.
  CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_C_FLAGS_DEBUG="-g -O1" -DCMAKE_CXX_FLAGS_DEBUG="-g -O1" \
    -DHXRT_SANITIZE=address -DHXRT_FUZZ=ON -DHXRT_WITH_CUDA=OFF -DHXRT_BUILD_BENCH=OFF
fi
cmake --build "$build" --target "${targets[@]}"

# The sanitizers' settings the fuzz smoke tests run with (cmake/sanitizers.cmake says why):
# LeakSanitizer's scan crashes on oneDNN's and PoCL's dynamic TLS without them.
export ASAN_OPTIONS=${ASAN_OPTIONS:-intercept_tls_get_addr=0:use_sigaltstack=0}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/tests/lsan_suppressions.txt}

scratch=$(mktemp -d "${TMPDIR:-/tmp}/hxrt-fuzz.XXXXXX")
findings=0
summary=()
for target in "${targets[@]}"; do
  corpus=$scratch/$target
  artifacts=$build/tests/fuzz/$target.findings
  mkdir -p "$corpus" "$artifacts"
  cp -R "tests/fuzz/corpus/$target/." "$corpus/"
  dictionary=()
  if [[ -f tests/fuzz/$target.dict ]]; then dictionary=("-dict=tests/fuzz/$target.dict"); fi
  log=$scratch/$target.log
  echo "== $target: ${seconds} s"
  status=0
  "$build/bin/$target" -max_total_time="$seconds" -print_final_stats=1 "${dictionary[@]}" \
    -artifact_prefix="$artifacts/" "$corpus" > "$log" 2>&1 || status=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  if [[ $status -eq 0 ]]; then
    result="0 findings"
  else
    findings=$((findings + 1))
    result="FINDING (exit $status): see $log and $artifacts/"
    grep -E "^(==[0-9]+==ERROR|SUMMARY|.*_fuzz: )" "$log" | head -5 || true
  fi
  summary+=("$(printf '%-18s %12s runs %8s/s  %s' "$target" "${runs:-?}" "${rate:-?}" "$result")")
done

echo "== summary (corpora and logs in $scratch)"
printf '%s\n' "${summary[@]}"
[[ $findings -eq 0 ]]
