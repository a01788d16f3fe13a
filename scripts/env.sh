# scripts/env.sh: source me (`. scripts/env.sh`) to get flamedrop's build tools on PATH.
# Puts the npm binaryen@132 wasm-opt (tools/binaryen) first, ahead of any older /usr/bin/wasm-opt,
# then $CARGO_HOME/bin (default ~/.cargo/bin: trunk, wasm-bindgen). Also sets the cargo target dir shared by all clones and
# keeps Trunk from asking crates.io for updates. Installed by scripts/setup.sh.
FLAMEDROP_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export FLAMEDROP_ROOT
export PATH="$FLAMEDROP_ROOT/tools/binaryen/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/flamedrop/target}"
export TRUNK_SKIP_VERSION_CHECK=true
