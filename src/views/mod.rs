//! What is written from the views besides the canvases: the SVG files
//! ([`svg`], [`timeline_svg`], assembled for the open view by [`export`]),
//! and the timeline's lane layout ([`lanes`]).

pub mod export;
pub mod lanes;
pub mod svg;
pub mod timeline_svg;

pub use lanes::{LaneKey, LaneLayout};
