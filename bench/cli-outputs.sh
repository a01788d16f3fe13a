#!/usr/bin/env bash
# bench/cli-outputs.sh OUT_DIR [FLAMEDROP]: writes `flamedrop report --json` and
# `flamedrop convert --to chrome` of every fixture (each folder or file below tests/fixtures/<group>/,
# README and reference output left out) into OUT_DIR, one file per fixture and command, so two
# builds can be compared with `diff -r` (a change to the model must not change what the CLI prints).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=${1:?usage: bench/cli-outputs.sh OUT_DIR [FLAMEDROP]}
bin=${2:-${CARGO_TARGET_DIR:-target}/release/flamedrop}
mkdir -p "$out"
for f in tests/fixtures/*/*; do
  case $(basename "$f") in README.md | PROVENANCE.md | *.c | reference | elf) continue ;; esac
  name=$(echo "${f#tests/fixtures/}" | tr '/' '_')
  path=$f
  # uftrace cases hold their trace in uftrace.data/
  [ -d "$f/uftrace.data" ] && path=$f/uftrace.data
  "$bin" report "$path" --json >"$out/$name.report.json" 2>"$out/$name.report.err"
  echo "exit $?" >>"$out/$name.report.err"
  "$bin" convert "$path" --to chrome -o "$out/$name.chrome.json" 2>"$out/$name.chrome.err"
  echo "exit $?" >>"$out/$name.chrome.err"
done
ls "$out" | wc -l
