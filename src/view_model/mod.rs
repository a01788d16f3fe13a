//! The page's model without web types, built and tested natively: the trace
//! on screen and the trees kept with it ([`loaded`], [`trees`]), a
//! comparison with its diff ([`compared`]), the spans a table row highlights
//! ([`highlight`]) and how numbers and names are written ([`text`]).

pub mod compared;
pub mod highlight;
pub mod loaded;
pub mod text;
pub mod trees;

pub use compared::Compared;
pub use loaded::Loaded;
