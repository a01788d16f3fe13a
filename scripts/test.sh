#!/usr/bin/env bash
# scripts/test.sh: run every test. Installs what is missing (scripts/setup.sh), then runs all
# checks (scripts/check.sh: fmt, clippy, unit tests, docs, Trunk build, end-to-end tests).
# Arguments go to check.sh (--quick, --e2e-only).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/setup.sh
exec scripts/check.sh "$@"
