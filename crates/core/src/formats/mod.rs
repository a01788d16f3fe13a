//! One module per input format. Each turns raw files into builder calls.

pub mod swap;
pub mod uftrace;
