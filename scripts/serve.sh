#!/usr/bin/env bash
# scripts/serve.sh: build the viewer and serve it locally with a demo trace.
# Installs what is missing (scripts/setup.sh), runs `trunk build --release`, then serves dist/ on
# http://127.0.0.1:${PORT:-8080}/ (and under /flamedrop/) until Ctrl-C.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/setup.sh
. scripts/env.sh
cargo fetch
trunk build --release --offline
port=${PORT:-8080}
echo
echo "flamedrop: open http://127.0.0.1:$port/?demo=a-simple-nested   (Ctrl-C stops the server)"
exec node tests/e2e/server.js dist --port "$port"
