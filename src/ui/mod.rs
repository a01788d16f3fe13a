//! The page's Yew components, each a thin shell over the pure model
//! (`view_model`, `timeline`) and the painters (`render`): the header's
//! view controls ([`header`]) and compare panel ([`compare`]), a node's
//! right-click menu ([`context_menu`]), the
//! aggregated views ([`aggregate`]), the Listing view ([`listing`]), the Memory view ([`memory`]), the empty page and drop target
//! ([`welcome`]), the load progress ([`progress`]), the flame chart
//! ([`flamechart`]) with its [`tooltip`], the narrowing bar ([`narrow`]:
//! filter box, breadcrumb, notes), and the side panel ([`sidebar`])
//! holding the [`summary`], the selected span's [`detail`] and the
//! format's [`tables`].

#[cfg(target_arch = "wasm32")]
pub mod activity;
pub mod aggregate;
pub mod compare;
pub mod components;
pub mod context_menu;
pub mod detail;
pub mod flamechart;
pub mod header;
pub mod help;
pub mod listing;
pub mod memory;
pub mod narrow;
pub mod part_choice;
pub mod part_prefix;
pub mod partial;
pub mod progress;
pub mod sidebar;
pub mod source_view;
pub mod span_info;
pub mod summary;
pub mod tables;
pub mod tooltip;
pub mod values;
pub mod welcome;
