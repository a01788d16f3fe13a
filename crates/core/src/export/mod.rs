//! Writers of formats other viewers read: Chrome trace JSON (Perfetto,
//! chrome://tracing), speedscope JSON and collapsed stacks (flamegraph.pl,
//! speedscope, inferno).

pub mod chrome;
pub mod collapsed;
pub mod speedscope;
