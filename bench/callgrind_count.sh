# Sourced by the instruction-count scripts (count_instructions.sh, count_trace_instructions.sh).
#
# callgrind_count PROGRAM FUNCTION OPS: the instructions executed in FUNCTION and what it
# calls, over all its calls, when PROGRAM runs with the argument OPS (valgrind's callgrind).
callgrind_count() {
  local out
  out=$(mktemp)
  valgrind --tool=callgrind --callgrind-out-file="$out" --toggle-collect="$2*" \
    "$1" "$3" 2>&1 >/dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
  rm -f "$out"
}
