#!/usr/bin/env bash
# bench/report.sh TRACE_DIR [RUNS]: times `flamedrop report` against `uftrace report` on the same
# uftrace.data folder, alternating them RUNS times (default 5) so both see the same machine load,
# and prints the medians (wall clock, and peak RSS) as a markdown table.
#
# The CLI is $FLAMEDROP_CLI, else $CARGO_TARGET_DIR/release/flamedrop (build it with
# `cargo build --release -p flamedrop-cli`). Both reports are written to files and compared.
set -euo pipefail
trace=${1:?usage: bench/report.sh TRACE_DIR [RUNS]}
runs=${2:-5}
cli=${FLAMEDROP_CLI:-${CARGO_TARGET_DIR:-$HOME/.cache/flamedrop/target}/release/flamedrop}
[ -x "$cli" ] || { echo "no CLI at $cli: cargo build --release -p flamedrop-cli" >&2; exit 2; }
command -v uftrace >/dev/null || { echo "uftrace is not installed" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

measure() { # name command...: appends "seconds kB" to $out/name
  local name=$1
  shift
  /usr/bin/time -f '%e %M' -o "$out/$name.last" "$@" >"$out/$name.txt" 2>/dev/null
  cat "$out/$name.last" >>"$out/$name"
}
for _ in $(seq "$runs"); do
  measure flamedrop "$cli" report "$trace"
  measure uftrace uftrace report -d "$trace"
done
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
row() {
  local s m
  s=$(cut -d' ' -f1 "$out/$1" | median)
  m=$(cut -d' ' -f2 "$out/$1" | median)
  printf '| %s | %s s | %s MB | %s |\n' "$2" "$s" "$((m / 1000))" "$(cut -d' ' -f1 "$out/$1" | tr '\n' ' ')"
}
# The function table: the lines up to the first blank one, spacing normalised.
table() { sed '/^$/q' "$1" | grep -v '^$' | sed 's/ \+/ /g'; }
same=$(cmp -s <(table "$out/flamedrop.txt") <(table "$out/uftrace.txt") && echo yes || echo no)
echo "$(date -u +%FT%TZ) · load average $(cut -d' ' -f1-3 /proc/loadavg) · $runs runs each, alternating"
echo
echo "| command | median wall time | median peak RSS | every run (s) |"
echo "|---|---|---|---|"
row flamedrop "flamedrop report $(basename "$(dirname "$trace")")/$(basename "$trace")"
row uftrace "uftrace report -d … (v$(uftrace --version | sed -n 's/^uftrace v\([^ ]*\).*/\1/p'))"
echo
echo "Function rows identical up to spacing: $same"
