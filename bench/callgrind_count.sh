# Sourced by the instruction-count scripts (count_*_instructions.sh, check_*_instructions.sh).
#
# callgrind_count PROGRAM FUNCTION OPS [KERNEL]: the instructions executed in FUNCTION and what
# it calls, over all its calls, when PROGRAM runs with the argument OPS (valgrind's callgrind).
# With KERNEL (a regular expression matching one function's name in callgrind_annotate's
# listing), prints a second number: the instructions of that function and what it calls, made
# while FUNCTION ran.
callgrind_count() {
  local out total
  out=$(mktemp)
  total=$(valgrind --tool=callgrind --callgrind-out-file="$out" --toggle-collect="$2(*" \
    "$1" "$3" 2>&1 >/dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
  if [[ -n ${4:-} ]]; then
    local kernel
    kernel=$(callgrind_annotate --inclusive=yes "$out" 2>/dev/null | grep -E "$4" | head -1 |
      awk '{gsub(",", "", $1); print $1}')
    echo "$total ${kernel:-0}"
  else
    echo "$total"
  fi
  rm -f "$out"
}

# checked_program ARG LOOP: for the check scripts that CTest runs, the program to count: ARG
# itself, or LOOP in ARG's bin/ when ARG is a build folder. Exits 1 when it is missing, and 77
# (CTest's skip) when valgrind is.
checked_program() {
  local program=$1
  [[ -d $program ]] && program=$program/bin/$2
  [[ -x $program ]] || { echo "$program is missing: build the target $2" >&2; exit 1; }
  if ! command -v valgrind >/dev/null; then
    echo "valgrind is missing (apt-get install valgrind): not checked" >&2
    exit 77
  fi
  echo "$program"
}
