//! What the page and the decoding worker say to each other, shared by both
//! sides: the messages (`protocol`) and the trace's big columns as
//! transferred typed arrays (`columns`: `detach` in the worker, `attach`
//! on the page), or, in the shared-memory build, the whole trace left in
//! memory the page shares ([`handover`]), where a split sp-rtrace decode's
//! parts also meet ([`join`]). Only `handover` and `join` build natively
//! (they are tested there); the other two are wasm only.

#[cfg(target_arch = "wasm32")]
pub mod columns;
pub mod handover;
pub mod join;
#[cfg(target_arch = "wasm32")]
pub mod protocol;
