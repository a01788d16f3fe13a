#!/usr/bin/env bash
# scripts/serve.sh: build the viewer and serve it locally with a demo trace.
# Installs what serving needs and is missing (scripts/setup.sh --serve: no Chromium, no test
# packages), runs `trunk build --release`, then serves dist/ on http://127.0.0.1:${PORT:-8080}/ (and
# under /flamedrop/) until Ctrl-C. On a new machine the viewer's wasm is compiled while Trunk and
# wasm-bindgen-cli build (the same `cargo build` Trunk runs, so Trunk then finds it done).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. scripts/env.sh
prebuild=
if command -v rustup >/dev/null && command -v cargo >/dev/null; then
  rustup target list --installed | grep -qx wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown
  prebuild_log=$(mktemp)
  cargo build --release --target wasm32-unknown-unknown --bin app --bin worker >"$prebuild_log" 2>&1 &
  prebuild=$!
  # If the setup fails, the background build stops too.
  trap 'kill "$prebuild" 2>/dev/null || true' EXIT
  echo "serve.sh: compiling the viewer in the background (log: $prebuild_log)"
fi
scripts/setup.sh --serve
if [ -n "$prebuild" ]; then
  wait "$prebuild" || { tail -n 40 "$prebuild_log" >&2; echo "serve.sh: cargo build of the viewer failed" >&2; exit 1; }
  trap - EXIT
  rm -f "$prebuild_log"
fi
cargo fetch
trunk build --release --offline
port=${PORT:-8080}
echo
echo "flamedrop: open http://127.0.0.1:$port/?demo=a-simple-nested   (Ctrl-C stops the server)"
exec node tests/e2e/server.js dist --port "$port"
