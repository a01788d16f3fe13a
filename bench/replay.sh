#!/usr/bin/env bash
# bench/replay.sh TRACE_DIR [RUNS]: times `flamedrop replay` against `uftrace replay` on the same
# uftrace.data folder, both written to /dev/null, alternating them RUNS times (default 3) so both
# see the same machine load, and prints the medians (wall clock, CPU time = user + system, and peak
# RSS) as a markdown table. On a loaded machine the CPU time is the steadier figure.
# One more, untimed pass of each counts the lines both print and tells where they first differ.
#
# The CLI is $FLAMEDROP_CLI, else $CARGO_TARGET_DIR/release/flamedrop (build it with
# `cargo build --release -p flamedrop-cli`). Extra options for both commands (e.g. `-f none`,
# `--no-args`) go in $REPLAY_OPTIONS.
set -euo pipefail
trace=${1:?usage: bench/replay.sh TRACE_DIR [RUNS]}
runs=${2:-3}
options=${REPLAY_OPTIONS:-}
cli=${FLAMEDROP_CLI:-${CARGO_TARGET_DIR:-$HOME/.cache/flamedrop/target}/release/flamedrop}
[ -x "$cli" ] || { echo "no CLI at $cli: cargo build --release -p flamedrop-cli" >&2; exit 2; }
command -v uftrace >/dev/null || { echo "uftrace is not installed" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

measure() { # name command...: appends "wall-seconds kB cpu-seconds" to $out/name
  local name=$1
  shift
  /usr/bin/time -f '%e %M %U %S' -o "$out/$name.last" "$@" >/dev/null 2>"$out/$name.err"
  awk '{printf "%s %s %.2f\n", $1, $2, $3 + $4}' "$out/$name.last" >>"$out/$name"
}
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
for _ in $(seq "$runs"); do
  # shellcheck disable=SC2086 # $options is a word list
  measure flamedrop "$cli" replay $options "$trace"
  # shellcheck disable=SC2086
  measure uftrace uftrace replay --no-pager $options -d "$trace"
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
row() {
  local s m c
  s=$(cut -d' ' -f1 "$out/$1" | median)
  m=$(cut -d' ' -f2 "$out/$1" | median)
  c=$(cut -d' ' -f3 "$out/$1" | median)
  printf '| %s | %s s | %s s | %s MB | %s |\n' "$2" "$s" "$c" "$((m / 1000))" \
    "$(cut -d' ' -f1 "$out/$1" | tr '\n' ' ')"
}
echo "$(date -u +%FT%TZ) · $(nproc) cores · load average $load_before before, $load_after after" \
  "· $runs runs each, alternating, output to /dev/null"
echo
echo "| command | median wall time | median CPU time | median peak RSS | every run, wall (s) |"
echo "|---|---|---|---|---|"
name="$(basename "$(dirname "$trace")")/$(basename "$trace")"
row flamedrop "flamedrop replay ${options:+$options }$name"
row uftrace "uftrace replay ${options:+$options }-d … (v$(uftrace --version | sed -n 's/^uftrace v\([^ ]*\).*/\1/p'))"
echo
# shellcheck disable=SC2086
"$cli" replay $options "$trace" >"$out/flamedrop.txt"
# shellcheck disable=SC2086
uftrace replay --no-pager $options -d "$trace" >"$out/uftrace.txt"
echo "Lines: flamedrop $(wc -l <"$out/flamedrop.txt"), uftrace $(wc -l <"$out/uftrace.txt");" \
  "$(cmp "$out/flamedrop.txt" "$out/uftrace.txt" >/dev/null 2>&1 && echo "byte-identical" ||
    echo "first difference: $(cmp "$out/flamedrop.txt" "$out/uftrace.txt" 2>&1 | sed 's/^[^:]*: *//')")"
