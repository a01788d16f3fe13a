//! Painting the flame chart on a 2D canvas: colours and themes (`colors`),
//! fitting names into rectangles (`text`), dense rows as pixel strips
//! (`strips`) and the frame painter (`paint`).

pub mod colors;
pub mod strips;
pub mod text;

#[cfg(target_arch = "wasm32")]
pub mod flamegraph;
#[cfg(target_arch = "wasm32")]
pub mod minimap;
#[cfg(target_arch = "wasm32")]
pub mod paint;
