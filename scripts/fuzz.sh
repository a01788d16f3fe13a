#!/usr/bin/env bash
# scripts/fuzz.sh: runs every cargo-fuzz target (or the ones named) for MINUTES each, one after
# the other, and prints a table — target, minutes, execs, crashes — to stdout and fuzz/RESULTS.md.
#
#   scripts/fuzz.sh MINUTES [TARGET...]      e.g. scripts/fuzz.sh 30     or  scripts/fuzz.sh 1 uftrace_dat
#
# Targets are the files in fuzz/fuzz_targets/. Each gets a corpus in fuzz/corpus/<target>/ (kept
# between runs, not committed), seeded from tests/fixtures: files of the fixture group named like
# the target's prefix (uftrace_dat → tests/fixtures/uftrace*/), every fixture for the others.
# A crash, a timeout (10 s on one input) or running out of memory (2 GiB) saves the input under
# fuzz/artifacts/<target>/, is counted, and fuzzing goes on until the time is up. Each crash must
# become a regression test (crates/core/tests/hostile.rs). Needs the nightly toolchain and
# cargo-fuzz, which scripts/setup.sh does not install (CI does not fuzz):
#   rustup toolchain install nightly && cargo install --locked cargo-fuzz
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. scripts/env.sh

usage() { sed -n '2,14p' "$0"; exit 2; }
[ $# -ge 1 ] || usage
minutes=$1
shift
[[ $minutes =~ ^[0-9]+([.][0-9]+)?$ ]] || usage
command -v cargo-fuzz >/dev/null || {
  echo "fuzz.sh: cargo-fuzz is not installed: rustup toolchain install nightly && cargo install --locked cargo-fuzz" >&2
  exit 1
}

all=$(ls fuzz/fuzz_targets/*.rs | xargs -n1 basename | sed 's/\.rs$//' | sort)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || read -r -a targets <<<"$(echo $all)"
for t in "${targets[@]}"; do
  grep -qx "$t" <<<"$all" || { echo "fuzz.sh: no target $t (have: $(echo $all))" >&2; exit 2; }
done

# Fuzz builds go to their own target dir (sanitizer flags would rebuild the main one).
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/flamedrop/target}-fuzz"
for t in "${targets[@]}"; do
  echo "== building $t (cargo +nightly fuzz build -O)"
  log=$(mktemp)
  if ! cargo +nightly fuzz build -O "$t" >"$log" 2>&1; then
    tail -30 "$log" >&2
    echo "fuzz.sh: $t does not build" >&2
    exit 1
  fi
  rm -f "$log"
done

# Seeds: fixture files (not reference output, not docs), at most 1 MiB each.
seed() {
  local target=$1 dir=fuzz/corpus/$1 prefix=${1%%_*}
  mkdir -p "$dir"
  local groups=(tests/fixtures/"$prefix"*/)
  [ -d "${groups[0]}" ] || groups=(tests/fixtures/*/)
  find "${groups[@]}" -type f -size -1025k -not -path '*/reference/*' -not -name '*.md' -print0 |
    while IFS= read -r -d '' f; do
      cp -n "$f" "$dir/seed-$(sha1sum "$f" | cut -c1-16)" 2>/dev/null || true
    done
}

results=()
for t in "${targets[@]}"; do
  seed "$t"
  mkdir -p "fuzz/artifacts/$t"
  budget=$(awk -v m="$minutes" 'BEGIN { printf "%d", m * 60 }')
  start=$SECONDS execs=0 crashes=0 runs=0
  before=$(ls "fuzz/artifacts/$t" | wc -l)
  echo "== $t: ${minutes} min, corpus fuzz/corpus/$t ($(ls "fuzz/corpus/$t" | wc -l) files)"
  # libFuzzer stops at the first crash: start it again until the time is up.
  while [ $((SECONDS - start)) -lt "$budget" ] && [ "$runs" -lt 50 ]; do
    left=$((budget - (SECONDS - start)))
    log=$(mktemp)
    status=0
    cargo +nightly fuzz run -O "$t" "fuzz/corpus/$t" -- \
      -max_total_time="$left" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="fuzz/artifacts/$t/" >"$log" 2>&1 || status=$?
    n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    if [ -z "$n" ]; then # killed before printing stats: take the last status line
      n=$(grep -o '^#[0-9]*' "$log" | tail -1 | tr -d '#')
    fi
    execs=$((execs + ${n:-0}))
    runs=$((runs + 1))
    if [ "$status" -ne 0 ]; then
      crashes=$((crashes + 1))
      grep -m1 -E 'ERROR: libFuzzer|panicked at|deadly signal|timeout|out-of-memory' "$log" | sed "s/^/   $t: /" || true
    fi
    rm -f "$log"
  done
  saved=$(( $(ls "fuzz/artifacts/$t" | wc -l) - before ))
  mins=$(awk -v s=$((SECONDS - start)) 'BEGIN { printf "%.1f", s / 60 }')
  echo "   $t: $mins min, $execs execs, $crashes crashes ($saved new artifacts)"
  results+=("| $t | $mins | $execs | $crashes |")
done

table=$(printf '| target | minutes | execs | crashes |\n|---|---:|---:|---:|\n'; printf '%s\n' "${results[@]}")
echo
echo "$table"
{
  echo "# Fuzzing results"
  echo
  echo "Last run: $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'),"
  echo "\`scripts/fuzz.sh $minutes ${*:-}\` ($(nproc) cores). Crash inputs are in \`fuzz/artifacts/<target>/\`."
  echo
  echo "$table"
} >fuzz/RESULTS.md
echo
echo "written to fuzz/RESULTS.md"
