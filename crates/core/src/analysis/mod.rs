//! Analyses over a decoded trace: the per-function report behind
//! `flamedrop report` and `window.flamedrop.report()`, the call trees behind
//! the aggregated views (top-down, bottom-up, sandwich, flame graph layout,
//! search), and the walks the views share.

pub mod activity;
pub mod calltree;
pub mod components;
pub mod diff;
pub mod diff_table;
pub mod flamegraph;
pub mod inverted;
pub mod listing;
pub mod memory;
pub(crate) mod meter;
pub mod read_events;
pub mod report;
pub mod report_sort;
pub mod sandwich;
pub mod search;
pub mod transform;
pub mod values;
pub mod walk;

pub use calltree::{build as build_call_tree, AllocationWeight, CallTree, Node, Source};
pub use diff_table::{compare, Comparison, FunctionDiff};
pub use inverted::bottom_up;
pub use report::{report, Report};
pub use sandwich::{sandwich, sandwich_with, Sandwich};
