# shellcheck shell=bash
# A Python virtual environment of pinned PyPI packages under .cache/, made whole or not at all;
# sourced by scripts/make-model-venv.sh and scripts/make-python-venv.sh.

# hxrt_make_venv NAME CONSEQUENCE PACKAGE...: makes .cache/NAME with PACKAGE... unless it is
# there already, and prints its python on the last line. Without PyPI (or python3's venv
# module) it says so, ending with CONSEQUENCE (what then happens without it), leaves no
# half-made environment behind, prints nothing on stdout and returns 0. CTest may start several
# tests that call it at once: one makes it, the others wait on .cache/NAME.lock.
hxrt_make_venv() {
  local name=$1 consequence=$2
  shift 2
  local root
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
  local venv="$root/.cache/$name"
  mkdir -p "$root/.cache"
  exec 9>"$root/.cache/$name.lock"
  flock 9
  # "complete" holds the pins it was made with: when a script's pins change, it is made anew.
  if [[ -f "$venv/complete" && "$(cat "$venv/complete")" == "$*" ]]; then
    echo "$venv/bin/python"
    return 0
  fi
  rm -rf "$venv"
  local log
  log="$(mktemp)"
  if ! python3 -m venv "$venv" >"$log" 2>&1 ||
      ! "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$@" \
        >>"$log" 2>&1; then
    echo "Could not make $venv with $* from PyPI ($consequence):" >&2
    tail -3 "$log" >&2
    rm -rf "$venv" "$log"
    return 0
  fi
  rm -f "$log"
  echo "$*" >"$venv/complete"  # whole or not at all: its users look for this
  echo "$venv/bin/python"
}
