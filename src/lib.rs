//! flamedrop-web: the viewer that Trunk builds into a static page.
//!
//! Two wasm binaries share this library: `app` (the Yew page) and `worker`
//! (the decoding Web Worker). The page gathers the dropped or opened files
//! and hands them to workers (`loading`), which read them in chunks, decode
//! them with `flamedrop-core` and send the trace back (`worker`, speaking
//! `wire`). The app (`app`) owns the page's state and draws it with the
//! components (`components`), and `window.flamedrop` (`script_api`) reads
//! what the app publishes.
//!
//! Built natively as well (so `cargo test` covers them without a browser):
//! the pure model (`view_model`, `views`), the timeline's arithmetic
//! (`chart`) and the painters' pure parts (`canvas`). Everything else is
//! wasm-only.

// Native and wasm: pure code, tested natively.
pub mod canvas;
pub mod chart;
pub mod view_model;
pub mod views;

// Wasm only: the page, its components, the script API, loading and the worker.
#[cfg(target_arch = "wasm32")]
pub mod app;
#[cfg(target_arch = "wasm32")]
pub mod browser;
#[cfg(target_arch = "wasm32")]
pub mod components;
#[cfg(target_arch = "wasm32")]
pub mod loading;
#[cfg(target_arch = "wasm32")]
pub mod script_api;
#[cfg(target_arch = "wasm32")]
pub mod wire;
#[cfg(target_arch = "wasm32")]
pub mod worker;
