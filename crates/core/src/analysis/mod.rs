//! Analyses over a decoded trace: the per-function report behind
//! `flamedrop report` and `window.flamedrop.report()`, and the walks the
//! views share.

pub mod report;
pub mod walk;

pub use report::{report, Report};
