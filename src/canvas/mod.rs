//! Painting the flame chart on a 2D canvas: colours and themes (`colors`),
//! how a span is filled and on which pixels (`fill`), a counter's area
//! chart as bars (`bars`), fitting names into rectangles (`text`), dense
//! rows as pixel strips (`strips`) and the frame painter (`paint`, one file
//! per part of the picture).

pub mod bars;
pub mod colors;
pub mod fill;
pub mod strips;
pub mod text;

#[cfg(target_arch = "wasm32")]
pub mod flamegraph;
#[cfg(target_arch = "wasm32")]
pub mod minimap;
#[cfg(target_arch = "wasm32")]
pub mod paint;
