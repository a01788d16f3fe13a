//! Writers of formats other viewers read: Chrome trace JSON (Perfetto,
//! chrome://tracing), speedscope JSON, collapsed stacks (flamegraph.pl,
//! speedscope, inferno), Perfetto's protobuf trace and pprof's profile.

pub mod chrome;
pub mod collapsed;
pub mod perfetto;
pub mod pprof;
pub mod speedscope;
