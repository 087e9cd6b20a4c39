#!/usr/bin/env bash
# SGEMM on every OpenBLAS core (kernel set) this CPU can run, each in a process of its own
# with OPENBLAS_CORETYPE set; on BLIS when Debian's libblis.so.4 is installed; and MatMul
# through Runtime::execute on the CPU plugin, with the core the plugin leaves in use. Prints
# GFLOP/s per size (medians over RUNS interleaved runs) and the plugin's 2048 throughput over
# the fastest measured (the target: at least 0.97x).
#
#   bench/blas_cores.sh [BUILD_DIR]   (default: build; a Release build with hxrt_blas_cores)
#   RUNS=3 THREADS=$(nproc) SIZES="2048 256" bench/blas_cores.sh build
#
# Every library gets THREADS threads (OPENBLAS_NUM_THREADS, BLIS_NUM_THREADS), the plugin
# included: it leaves OpenBLAS's thread count alone when execution.intra_op_threads is 0.
set -euo pipefail
build=${1:-build}
program=$build/bin/hxrt_blas_cores
if [[ ! -x $program ]]; then
  echo "$program is missing: build the target hxrt_blas_cores (HXRT_BUILD_BENCH=ON)" >&2
  exit 1
fi
runs=${RUNS:-3}
cpus=$(nproc)  # before OMP_NUM_THREADS is set: nproc obeys it
threads=${THREADS:-$cpus}
sizes=${SIZES:-2048 256}
export OPENBLAS_NUM_THREADS=$threads BLIS_NUM_THREADS=$threads OMP_NUM_THREADS=$threads
# The plugin's own choice is what is measured, not one the caller's environment forces.
unset OPENBLAS_CORETYPE

mapfile -t cores < <("$program" cores)
have_blis=no
if "$program" blis 8 >/dev/null 2>&1; then have_blis=yes; fi

results=$(mktemp)
trap 'rm -f "$results"' EXIT
# One line per measurement: "<row label>\t<size>\t<GFLOP/s>".
measure() {  # measure LABEL_PREFIX MODE SIZE [ENV...]
  local prefix=$1 mode=$2 size=$3 out
  shift 3
  out=$(env "$@" "$program" "$mode" "$size")
  printf '%s\t%s\t%s\n' "${prefix:+$prefix }${out% *}" "$size" "${out##* }" >>"$results"
}
# Every row once per run, each run starting at another row, so that a burst of load from
# elsewhere falls on different rows in different runs and the medians see past it.
rows=()
for core in "${cores[@]}"; do rows+=("core:$core"); done
if [[ $have_blis == yes ]]; then rows+=(blis); fi
rows+=(plugin)
for ((run = 0; run < runs; run++)); do
  for size in $sizes; do
    for ((i = 0; i < ${#rows[@]}; i++)); do
      row=${rows[$(((i + run) % ${#rows[@]}))]}
      case $row in
        core:*) measure OpenBLAS openblas "$size" OPENBLAS_CORETYPE="${row#core:}" ;;
        blis) measure "" blis "$size" ;;
        plugin) measure "CPU plugin MatMul, core" plugin "$size" ;;
      esac
    done
  done
done

echo "SGEMM, GFLOP/s: medians of $runs runs, $threads threads, $cpus cores ($(
  sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1))"
[[ $have_blis == yes ]] || echo "(BLIS: libblis.so.4 is not installed; apt-get install libblis-dev)"
awk -F'\t' -v sizes="$sizes" '
  function median(list,   values, n, i, j, t) {
    n = split(list, values, " ")
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
      if (values[j] + 0 < values[i] + 0) { t = values[i]; values[i] = values[j]; values[j] = t }
    return n % 2 ? values[(n + 1) / 2] : (values[n / 2] + values[n / 2 + 1]) / 2
  }
  {
    if (!($1 in seen)) { seen[$1] = 1; order[++rows] = $1 }
    list[$1, $2] = list[$1, $2] " " $3
  }
  END {
    split(sizes, size_list, " ")
    printf "  %-44s", ""
    for (s = 1; s in size_list; s++) printf " %9s", size_list[s]
    printf "\n"
    for (r = 1; r <= rows; r++) {
      printf "  %-44s", order[r]
      for (s = 1; s in size_list; s++) {
        m = median(list[order[r], size_list[s]])
        printf " %9.1f", m
        if (order[r] ~ /^CPU plugin/) plugin[size_list[s]] = m
        else if (m > best[size_list[s]]) { best[size_list[s]] = m; best_row[size_list[s]] = order[r] }
      }
      printf "\n"
    }
    for (s = 1; s in size_list; s++) {
      size = size_list[s]
      ratio = plugin[size] / best[size]
      verdict = ""
      if (size == 2048) verdict = ratio >= 0.97 ? " (target >= 0.97x: met)" : " (target >= 0.97x: MISSED)"
      printf "%s: fastest %s (%.1f); the plugin %.1f = %.2fx%s\n", size, best_row[size],
             best[size], plugin[size], ratio, verdict
    }
  }' "$results"
