#!/usr/bin/env bash
# scripts/setup.sh: installs what flamedrop's build and tests need, on a Debian machine with rustup,
# cargo, node and npm (see /work/shared/design/toolchain.md for why these exact versions):
#   rustup: wasm32-unknown-unknown, rust-src, rustfmt, clippy     apt: chromium, chromium-driver
#   cargo install: trunk 0.21.14, wasm-bindgen-cli = the wasm-bindgen version in Cargo.lock
#   npm: binaryen@132.0.0 (wasm-opt) into tools/binaryen, tests/e2e packages (playwright-core, speedscope)
#
#   scripts/setup.sh           everything (scripts/test.sh, CI)
#   scripts/setup.sh --serve   only what scripts/serve.sh needs: the wasm target, Trunk, wasm-bindgen-cli
#                              and wasm-opt (no rustfmt/clippy, no Chromium, no npm test packages)
#
# No registry this machine reaches ships Trunk or wasm-bindgen-cli prebuilt (npm, PyPI, Debian:
# checked 2026-11-26), so both are built from crates.io, at the same time as each other and as the
# apt/npm steps. Trunk is built without its fat-LTO single-unit release profile and without its
# default features (TLS and the crates.io update check: it runs offline here); if that build fails,
# Trunk is built as published. Idempotent: every step checks what is installed and skips; a second
# run takes a few seconds.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. scripts/env.sh

TRUNK_VERSION=0.21.14
BINARYEN_VERSION=132.0.0
WASM_BINDGEN_FALLBACK=0.2.130

serve_only=false
case "${1:-}" in
  '') ;;
  --serve) serve_only=true ;;
  *) echo "usage: scripts/setup.sh [--serve]" >&2; exit 2 ;;
esac

step() { printf '\n== setup: %s\n' "$*"; }
ok() { printf '   ok: %s\n' "$*"; }
# A failure stops the cargo installs still building in the background (and their compilers) too,
# so that a failed setup leaves nothing running.
kill_tree() { local child; for child in $(pgrep -P "$1" || true); do kill_tree "$child"; done; kill "$1" 2>/dev/null || true; }
die() {
  printf '\nsetup.sh: ERROR: %s\n' "$*" >&2
  local job
  for job in "${background[@]}"; do kill_tree "${job%%:*}"; done
  exit 1
}
background=()
trap 'die "command failed (line $LINENO): $BASH_COMMAND"' ERR
retry() { "$@" || { printf '   failed; retrying once: %s\n' "$*"; sleep 5; "$@"; }; }
as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"
  elif command -v sudo >/dev/null; then sudo "$@"
  else die "need root (or sudo) for: $*"; fi
}
# A cargo install must not build inside the shared project target dir.
cargo_install() { env -u CARGO_TARGET_DIR cargo install "$@"; }

step "prerequisites"
for cmd in rustup cargo node npm; do
  command -v "$cmd" >/dev/null || die "'$cmd' is not installed (this script expects rustup, cargo, node >= 20.11 and npm)"
done
node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=11)?0:1)' \
  || die "node $(node --version) is too old: the e2e tests need node >= 20.11 (node --test --test-timeout)"
ok "$(cargo --version), node $(node --version), npm $(npm --version 2>/dev/null)"

if $serve_only; then step "rustup target wasm32-unknown-unknown, component rust-src"; else step "rustup target wasm32-unknown-unknown, components rust-src + rustfmt + clippy"; fi
rustup target list --installed | grep -qx wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown
# rust-src: the shared-memory build rebuilds the standard library with atomics (scripts/build-shared.sh).
rustup component list --installed | grep -q "^rust-src" || rustup component add rust-src
if ! $serve_only; then
  installed=$(rustup component list --installed)
  for c in rustfmt clippy; do grep -q "^$c" <<<"$installed" || rustup component add "$c"; done
fi
ok "wasm32-unknown-unknown, rust-src$($serve_only || echo ', rustfmt, clippy')"

# The two cargo installs are the long part (minutes of compiling): they run in the background, at
# the same time, while the apt and npm steps download; their output goes to a log shown on failure.
logs=$(mktemp -d)
in_background() { # NAME COMMAND...: runs COMMAND with its output in $logs/NAME.log
  local name=$1; shift
  ("$@") >"$logs/$name.log" 2>&1 &
  background+=("$!:$name")
  printf '   started in the background: %s (log: %s)\n' "$name" "$logs/$name.log"
}

trunk_install() {
  # Trunk's own release profile (fat LTO, one codegen unit) makes its last crate a long single-core
  # build; cargo's default release settings build it on every core. Without default features: no
  # TLS stack and no update check (Trunk runs offline here and serves plain http on loopback).
  CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
    cargo_install --locked trunk --version "$TRUNK_VERSION" --no-default-features && return
  printf '   the quick Trunk build failed; building Trunk as published\n'
  # Two fat-LTO trunk builds at once (2.1 GB each) can run out of memory on a shared machine: wait
  # for another one already running.
  while pgrep -f "cargo install --locked trunk --version $TRUNK_VERSION\$" >/dev/null; do echo "   another 'cargo install trunk' is running; waiting"; sleep 20; done
  retry cargo_install --locked trunk --version "$TRUNK_VERSION"
}

step "cargo install trunk $TRUNK_VERSION"
if [ "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ]; then
  in_background trunk trunk_install
else
  ok "$(trunk --version)"
fi

step "cargo install wasm-bindgen-cli (the version in Cargo.lock)"
if [ ! -f Cargo.lock ] && [ -f Cargo.toml ]; then cargo generate-lockfile || echo "   (cargo generate-lockfile failed)"; fi
wb=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/"/, ""); print $3; exit }' Cargo.lock 2>/dev/null || true)
if [ -z "$wb" ]; then wb=$WASM_BINDGEN_FALLBACK; echo "   no wasm-bindgen in Cargo.lock; using $wb"; fi
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $wb" ]; then
  # No --locked: wasm-bindgen-cli's lock names a webpki-roots this registry lacks (toolchain.md).
  in_background wasm-bindgen-cli retry cargo_install wasm-bindgen-cli --version "$wb"
else
  ok "$(wasm-bindgen --version)"
fi

if ! $serve_only; then
  step "apt: chromium, chromium-driver"
  if [ "$(dpkg-query -W -f='${Status}\n' chromium chromium-driver 2>/dev/null | grep -c 'install ok installed')" != 2 ]; then
    as_root apt-get -o DPkg::Lock::Timeout=600 update
    retry as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y chromium chromium-driver
  fi
  ok "$(/usr/bin/chromium --version 2>/dev/null)"
fi

step "npm: binaryen@$BINARYEN_VERSION (wasm-opt) in tools/binaryen"
if ! wasm-opt --version 2>/dev/null | grep -q "version ${BINARYEN_VERSION%%.*} "; then
  mkdir -p tools/binaryen
  retry npm install --prefix tools/binaryen --no-audit --no-fund "binaryen@$BINARYEN_VERSION"
fi
[ "$(command -v wasm-opt)" = "$PWD/tools/binaryen/node_modules/.bin/wasm-opt" ] || die "wasm-opt on PATH is $(command -v wasm-opt), not tools/binaryen's"
ok "$(wasm-opt --version)"

if ! $serve_only; then
  step "npm: tests/e2e packages"
  # Every devDependency (playwright-core, speedscope) at the version package.json pins.
  want=$(node -p 'Object.entries(require("./tests/e2e/package.json").devDependencies).map(([n, v]) => n + "@" + v).join(" ")')
  installed_e2e() {
    node -p 'Object.keys(require("./tests/e2e/package.json").devDependencies).map((n) => { try { return n + "@" + require("./tests/e2e/node_modules/" + n + "/package.json").version } catch { return n + "@none" } }).join(" ")' 2>/dev/null || true
  }
  if [ "$want" != "$(installed_e2e)" ]; then
    if [ -f tests/e2e/package-lock.json ]; then retry npm ci --prefix tests/e2e --no-audit --no-fund
    else retry npm install --prefix tests/e2e --no-audit --no-fund; fi
  fi
  ok "$(installed_e2e)"
fi

if [ ${#background[@]} -gt 0 ]; then
  step "waiting for the cargo installs (several minutes on a new machine)"
  for job in "${background[@]}"; do
    if ! wait "${job%%:*}"; then
      tail -n 40 "$logs/${job#*:}.log" >&2
      die "cargo install ${job#*:} failed (whole log: $logs/${job#*:}.log)"
    fi
    ok "${job#*:} built in the background"
  done
fi
[ "$(trunk --version 2>/dev/null)" = "trunk $TRUNK_VERSION" ] || die "trunk on PATH is '$(trunk --version 2>&1)', not trunk $TRUNK_VERSION"
[ "$(wasm-bindgen --version 2>/dev/null)" = "wasm-bindgen $wb" ] || die "wasm-bindgen on PATH is '$(wasm-bindgen --version 2>&1)', not $wb"
ok "$(trunk --version), $(wasm-bindgen --version), $(wasm-bindgen-test-runner --version 2>/dev/null || echo 'no wasm-bindgen-test-runner')"
rm -rf "$logs"

printf '\n== setup: done\n'
