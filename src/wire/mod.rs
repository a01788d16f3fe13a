//! What the page and the decoding worker say to each other, shared by both
//! sides: the messages ([`protocol`]) and the trace's big columns as
//! transferred typed arrays ([`columns`]: `detach` in the worker, `attach`
//! on the page).

pub mod columns;
pub mod protocol;
