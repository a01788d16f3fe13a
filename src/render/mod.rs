//! Painting: colours and themes (`colors`), how a span is filled and on
//! which pixels (`fill`), a counter's area chart as bars (`bars`), fitting names into rectangles (`text`), dense rows
//! as pixel strips (`strips`); the SVG files (`svg` for a flame graph,
//! `timeline_svg` for the timeline's window, `memory_svg` for the Memory
//! view's charts, `export` for the open view),
//! all native; and the 2D canvas painters, wasm only: the timeline's frame
//! painter (`paint`, one file per part of the picture), the aggregated
//! flame graph (`flamegraph`), the minimap and the Memory view's charts
//! (`memory`).

// Native and wasm.
pub mod bars;
pub mod colors;
#[cfg(target_arch = "wasm32")]
pub mod components;
pub mod export;
pub mod fill;
pub mod memory_svg;
pub mod strips;
pub mod svg;
pub mod text;
pub mod timeline_svg;

// Wasm only: they draw on a canvas.
#[cfg(target_arch = "wasm32")]
pub mod activity;
#[cfg(target_arch = "wasm32")]
pub mod flamegraph;
#[cfg(target_arch = "wasm32")]
pub mod memory;
#[cfg(target_arch = "wasm32")]
pub mod minimap;
#[cfg(target_arch = "wasm32")]
pub mod paint;
#[cfg(target_arch = "wasm32")]
pub mod values;
