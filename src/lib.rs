//! flamedrop-web: the viewer that Trunk builds into a static page. Two wasm
//! binaries share this library: `app` (the page) and `worker` (the decoding
//! Web Worker). See "The viewer" in ARCHITECTURE.md.
//!
//! | module       | runs          | what it is |
//! |--------------|---------------|------------|
//! | `view_model` | native + wasm | the page's pure model: view state and the registry of views, sources, the trace on screen with its trees, comparisons, tables, text |
//! | `timeline`   | native + wasm | the timeline's viewport, hit testing, keys, gestures, lane layout |
//! | `render`     | native + wasm | colours, fills, text fitting, SVG writers; the canvas painters are wasm only |
//! | `app`        | wasm (page)   | the root component: owns `PageState`, lays out the page, export |
//! | `ui`         | wasm (page)   | the Yew components, thin shells over the above |
//! | `script_api` | wasm (page)   | `window.flamedrop`, reading the snapshot the app publishes |
//! | `loading`    | wasm (page)   | the page's side of a load: gather files, budget, workers, pacing, unpack |
//! | `browser`    | wasm (page)   | small browser conveniences |
//! | `wire`       | wasm (both)   | what the page and the worker say to each other; its `handover` (the shared-memory build's) builds natively too |
//! | `worker`     | wasm (worker) | only what runs inside the decoding worker |
//!
//! The first three build natively too, so `cargo test` and `cargo clippy`
//! cover them without a browser.

// Native and wasm: pure code, tested natively.
pub mod render;
pub mod timeline;
pub mod view_model;
pub mod wire;

// Wasm only.
#[cfg(target_arch = "wasm32")]
pub mod app;
#[cfg(target_arch = "wasm32")]
pub mod browser;
#[cfg(target_arch = "wasm32")]
pub mod loading;
#[cfg(target_arch = "wasm32")]
pub mod script_api;
#[cfg(target_arch = "wasm32")]
pub mod ui;
#[cfg(target_arch = "wasm32")]
pub mod worker;
