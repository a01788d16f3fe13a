//! Writers of formats other viewers read: Chrome trace JSON (Perfetto,
//! chrome://tracing) and collapsed stacks (flamegraph.pl, speedscope).

pub mod chrome;
pub mod collapsed;
