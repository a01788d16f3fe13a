#!/usr/bin/env bash
# scripts/setup.sh: installs what flamedrop's build and tests need, on a Debian machine with rustup,
# cargo, node and npm (see /work/shared/design/toolchain.md for why these exact versions):
#   rustup: wasm32-unknown-unknown, rustfmt, clippy     apt: chromium, chromium-driver
#   cargo install: trunk 0.21.14, wasm-bindgen-cli = the wasm-bindgen version in Cargo.lock
#   npm: binaryen@132.0.0 (wasm-opt) into tools/binaryen, tests/e2e packages (playwright-core, speedscope)
# Idempotent: every step checks what is installed and skips; a second run takes a few seconds.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. scripts/env.sh

TRUNK_VERSION=0.21.14
BINARYEN_VERSION=132.0.0
WASM_BINDGEN_FALLBACK=0.2.130

step() { printf '\n== setup: %s\n' "$*"; }
ok() { printf '   ok: %s\n' "$*"; }
die() { printf '\nsetup.sh: ERROR: %s\n' "$*" >&2; exit 1; }
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

step "rustup target wasm32-unknown-unknown, components rustfmt + clippy"
rustup target list --installed | grep -qx wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown
installed=$(rustup component list --installed)
for c in rustfmt clippy; do grep -q "^$c" <<<"$installed" || rustup component add "$c"; done
ok "wasm32-unknown-unknown, rustfmt, clippy"

step "apt: chromium, chromium-driver"
if [ "$(dpkg-query -W -f='${Status}\n' chromium chromium-driver 2>/dev/null | grep -c 'install ok installed')" != 2 ]; then
  as_root apt-get -o DPkg::Lock::Timeout=600 update
  retry as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y chromium chromium-driver
fi
ok "$(/usr/bin/chromium --version 2>/dev/null)"

step "npm: binaryen@$BINARYEN_VERSION (wasm-opt) in tools/binaryen"
if ! wasm-opt --version 2>/dev/null | grep -q "version ${BINARYEN_VERSION%%.*} "; then
  mkdir -p tools/binaryen
  retry npm install --prefix tools/binaryen --no-audit --no-fund "binaryen@$BINARYEN_VERSION"
fi
[ "$(command -v wasm-opt)" = "$PWD/tools/binaryen/node_modules/.bin/wasm-opt" ] || die "wasm-opt on PATH is $(command -v wasm-opt), not tools/binaryen's"
ok "$(wasm-opt --version)"

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

step "cargo install trunk $TRUNK_VERSION (about 7 min the first time)"
# Two trunk builds at once on 2 cores can run out of memory: wait for one already running.
while pgrep -f "cargo install .*trunk" >/dev/null; do echo "   another 'cargo install trunk' is running; waiting"; sleep 20; done
if [ "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ]; then
  retry cargo_install --locked trunk --version "$TRUNK_VERSION"
fi
ok "$(trunk --version)"

step "cargo install wasm-bindgen-cli (the version in Cargo.lock; about 2 min the first time)"
if [ ! -f Cargo.lock ] && [ -f Cargo.toml ]; then cargo generate-lockfile || echo "   (cargo generate-lockfile failed)"; fi
wb=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/"/, ""); print $3; exit }' Cargo.lock 2>/dev/null || true)
if [ -z "$wb" ]; then wb=$WASM_BINDGEN_FALLBACK; echo "   no wasm-bindgen in Cargo.lock; using $wb"; fi
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $wb" ]; then
  # No --locked: wasm-bindgen-cli's lock names a webpki-roots this registry lacks (toolchain.md).
  retry cargo_install wasm-bindgen-cli --version "$wb"
fi
ok "$(wasm-bindgen --version), $(wasm-bindgen-test-runner --version 2>/dev/null || echo 'no wasm-bindgen-test-runner')"

printf '\n== setup: done\n'
