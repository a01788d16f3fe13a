#!/usr/bin/env bash
# scripts/check.sh: the one check script, run by CI and by developers (after scripts/setup.sh).
# Runs fmt, the shape check (scripts/structure.py: file and function sizes, import circles),
# clippy (native and wasm32), tests, docs, the release build of the viewer with Trunk,
# then the end-to-end tests in headless Chromium against dist/. Stops at the first failure.
#
#   scripts/check.sh              everything
#   scripts/check.sh --quick      skip the Trunk build and the e2e tests
#   scripts/check.sh --e2e-only   only the Trunk build, the CLI build and the e2e tests
#
# The e2e suite runs twice: cross-origin isolated (service workers allowed: the page reloads once
# and runs isolated) and not (service workers blocked: the fallback). FLAMEDROP_E2E_RUNS="on"
# (or "off") runs one of them only; see FLAMEDROP_E2E_ISOLATION in tests/e2e/lib.js.
#
# Cargo builds into $CARGO_TARGET_DIR, by default ~/.cache/flamedrop/target, shared by all clones
# (scripts/env.sh); Trunk finds its cargo outputs there too.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. scripts/env.sh

mode=all
case "${1:-}" in
  '') ;;
  --quick) mode=quick ;;
  --e2e-only) mode=e2e ;;
  -h | --help) sed -n '2,15p' "$0"; exit 0 ;;
  *) echo "usage: scripts/check.sh [--quick | --e2e-only]" >&2; exit 2 ;;
esac

start=$SECONDS
run() {
  local t=$SECONDS
  printf '\n==== %s\n' "$*"
  "$@" || { printf '\ncheck.sh: FAILED (exit %s): %s\n' "$?" "$*" >&2; exit 1; }
  printf -- '---- ok (%ss)\n' "$((SECONDS - t))"
}
die() { printf '\ncheck.sh: FAILED: %s\n' "$*" >&2; exit 1; }

# Trunk builds offline, so every crate must be downloaded first. On CI, Cargo.lock must be current.
run cargo fetch ${CI:+--locked}

if [ "$mode" != e2e ]; then
  run cargo fmt --all -- --check
  run python3 scripts/structure.py
  run cargo clippy --workspace --all-targets -- -D warnings
  run cargo clippy -p flamedrop-web --target wasm32-unknown-unknown -- -D warnings
  run cargo test --workspace
  run env RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps
fi

if [ "$mode" != quick ]; then
  run trunk build --release --offline
  run cargo build -p flamedrop-cli
  export FLAMEDROP_CLI="$CARGO_TARGET_DIR/debug/flamedrop"
  [ -f dist/index.html ] || die "trunk build left no dist/index.html"

  # Serve dist/ at / and /flamedrop/ on a random free port; stop only this server when done.
  log=$(mktemp)
  node tests/e2e/server.js dist --port 0 >"$log" 2>&1 &
  server=$!
  trap 'kill "$server" 2>/dev/null; rm -f "$log"' EXIT
  for _ in $(seq 50); do grep -q '^listening ' "$log" && break; sleep 0.1; done
  FLAMEDROP_BASE=$(sed -n 's/^listening //p' "$log")
  [ -n "$FLAMEDROP_BASE" ] || die "the static server did not start: $(cat "$log")"
  export FLAMEDROP_BASE
  echo "serving dist/ at $FLAMEDROP_BASE (pid $server)"
  rm -rf tests/e2e/out
  for isolation in ${FLAMEDROP_E2E_RUNS:-on off}; do
    run env FLAMEDROP_E2E_ISOLATION="$isolation" npm --prefix tests/e2e test
  done
fi

printf '\ncheck.sh: all checks passed (%s, %ss)\n' "$mode" "$((SECONDS - start))"
