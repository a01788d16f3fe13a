//! flamedrop-web: the viewer that Trunk builds into a static page.
//!
//! Two wasm binaries share this library: `app` (the Yew page, `app`) and
//! `worker` (the decoding Web Worker, `worker`). The page gathers the
//! dropped or opened files (`loading`), hands the `File` handles to the
//! worker, which reads them in chunks, decodes them with `flamedrop-core` and
//! sends the trace back as one transferred buffer. The page then draws it
//! (`components::flamechart`, painted by `canvas`, steered by `chart`)
//! and exposes `window.flamedrop` for scripts and tests (`js_api`).
//!
//! Only the pure parts (colours, text fitting, chart arithmetic) build
//! natively, so `cargo test` and `cargo clippy --workspace` cover them without
//! a browser.

pub mod canvas;
pub mod chart;
pub mod format;
pub mod highlight;
pub mod views;

#[cfg(target_arch = "wasm32")]
pub mod app;
#[cfg(target_arch = "wasm32")]
pub mod browser;
#[cfg(target_arch = "wasm32")]
pub mod components;
#[cfg(target_arch = "wasm32")]
pub mod export_view;
#[cfg(target_arch = "wasm32")]
pub mod js_api;
#[cfg(target_arch = "wasm32")]
pub mod js_diff;
#[cfg(target_arch = "wasm32")]
pub mod js_views;
#[cfg(target_arch = "wasm32")]
pub mod loading;
#[cfg(target_arch = "wasm32")]
pub mod state;
#[cfg(target_arch = "wasm32")]
pub mod views_keys;
#[cfg(target_arch = "wasm32")]
pub mod worker;
