//! The page's model without web types, built and tested natively: which
//! view is open and everything about it that the URL keeps ([`view_state`],
//! with the registry of views), the data sources of the aggregated views
//! ([`source`]), the trace on screen and the trees kept with it
//! ([`loaded`], [`trees`]), a comparison with its diff ([`compared`],
//! [`diff`]), the call-tree table's rows ([`table`]), the spans a table row
//! highlights ([`highlight`]), the Listing view's rows and search
//! ([`listing`]), the narrowing stack's results
//! ([`narrowing`]), the filter box's line ([`filter_line`]), a node's
//! right-click menu ([`node_menu`]) and how numbers and names are written
//! ([`text`]).

pub mod activity;
pub mod compared;
pub mod components;
pub mod diff;
pub mod filter_line;
pub mod highlight;
pub mod listing;
pub mod loaded;
pub mod memory;
pub mod narrowing;
pub mod node_menu;
pub mod read_events;
pub mod saved_screen;
pub mod slice_budget;
pub mod source;
pub mod source_view;
pub mod source_view_files;
pub mod source_view_lines;
pub mod table;
pub mod text;
pub mod trees;
pub mod values;
pub mod view_state;

pub use compared::Compared;
pub use loaded::Loaded;
pub use source::SourceKey;
pub use view_state::{Available, Needs, View, ViewChange, ViewInfo, ViewState, VIEWS};
