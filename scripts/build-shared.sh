#!/usr/bin/env bash
# scripts/build-shared.sh: builds the viewer's shared-memory variant into <dist>/shared/
# (flamedrop.js + flamedrop_bg.wasm), which www/boot.js starts instead of Trunk's build when the
# page is cross-origin isolated. The page and its decoding workers then run this one module on one
# shared WebAssembly memory, and a decoded trace is handed over without a copy
# (src/wire/handover.rs).
#
# That needs the standard library rebuilt with wasm atomics: `-Z build-std` on the stable
# toolchain (RUSTC_BOOTSTRAP=1, the rust-src component) with the atomics target features, its
# own target directory, then wasm-bindgen (which sees the shared memory and emits the
# thread-aware glue) and wasm-opt with threads enabled.
#
# Trunk runs it after every build (the post_build hook in Trunk.toml, which sets TRUNK_PROFILE
# and TRUNK_STAGING_DIR); by hand: scripts/build-shared.sh [release|debug] <dist>.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$root/scripts/env.sh"
profile="${1:-${TRUNK_PROFILE:-release}}"
out="${2:-${TRUNK_STAGING_DIR:-$root/dist}}/shared"
target_dir="$CARGO_TARGET_DIR/shared-memory"

rustup component add rust-src >/dev/null 2>&1 || true
if [ ! -d "$(rustc --print sysroot)/lib/rustlib/src/rust/library" ]; then
  echo "build-shared.sh: the rust-src component is missing (rustup component add rust-src)" >&2
  exit 1
fi

cargo_profile=()
wasm_dir=debug
if [ "$profile" = release ]; then
  cargo_profile=(--release)
  wasm_dir=release
fi

# The linker makes the memory shared and imported (the page creates it, the workers are given
# it) and exports the thread-local storage hooks wasm-bindgen's thread support calls; 4 GiB is
# the most a wasm32 memory can hold (a shared memory must name its maximum).
link=(--shared-memory --import-memory --max-memory=4294967296
  --export=__wasm_init_tls --export=__tls_size --export=__tls_align --export=__tls_base)
rustflags="-C target-feature=+atomics,+bulk-memory,+mutable-globals"
for arg in "${link[@]}"; do rustflags+=" -C link-arg=$arg"; done
RUSTC_BOOTSTRAP=1 RUSTFLAGS="$rustflags" \
  cargo build "${cargo_profile[@]}" --manifest-path "$root/Cargo.toml" --bin app \
    --target wasm32-unknown-unknown --target-dir "$target_dir" -Z build-std=std,panic_abort

mkdir -p "$out"
wasm-bindgen --target web --no-typescript --out-dir "$out" --out-name flamedrop \
  "$target_dir/wasm32-unknown-unknown/$wasm_dir/app.wasm"
if [ "$profile" = release ]; then
  wasm-opt -O3 --enable-threads --enable-bulk-memory --enable-mutable-globals \
    --enable-nontrapping-float-to-int --enable-sign-ext --enable-reference-types \
    --enable-multivalue "$out/flamedrop_bg.wasm" -o "$out/flamedrop_bg.wasm"
fi
echo "build-shared.sh: $out/flamedrop_bg.wasm ($(du -h "$out/flamedrop_bg.wasm" | cut -f1))"
