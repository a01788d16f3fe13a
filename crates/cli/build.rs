//! Embeds the built viewer (`dist/`, made by `trunk build --release`) into
//! the `flamedrop` binary for `flamedrop open`. The folder is the
//! workspace's `dist/`, or `$FLAMEDROP_DIST` when set. When it holds no
//! `index.html` the CLI still builds, without the viewer, and `open` says how
//! to get one that has it.

use std::path::PathBuf;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(flamedrop_viewer)");
    println!("cargo::rerun-if-env-changed=FLAMEDROP_DIST");
    let manifest_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let dist = match std::env::var_os("FLAMEDROP_DIST") {
        Some(dir) => manifest_dir.join("../..").join(dir),
        None => manifest_dir.join("../../dist"),
    };
    // A folder is scanned whole for changes; a missing one makes Cargo run
    // this again on every build, so the viewer is picked up once built.
    println!("cargo::rerun-if-changed={}", dist.display());
    if dist.join("index.html").is_file() {
        let dist = dist.canonicalize().unwrap_or(dist);
        println!("cargo::rustc-cfg=flamedrop_viewer");
        println!("cargo::rustc-env=FLAMEDROP_VIEWER_DIR={}", dist.display());
    }
}
