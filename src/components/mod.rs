//! The page's Yew components: the empty page and drop target
//! ([`welcome`]), the load progress ([`progress`]), the flame chart
//! ([`flamechart`]) with its [`tooltip`], and the side panel ([`sidebar`])
//! holding the [`summary`] and the selected span's [`detail`].

pub mod aggregate;
pub mod detail;
pub mod flamechart;
pub mod header;
pub mod help;
pub mod progress;
pub mod sidebar;
pub mod span_info;
pub mod summary;
pub mod tooltip;
pub mod welcome;
