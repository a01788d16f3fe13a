//! One module per input format. Each turns raw files into builder calls.

pub mod common;
pub mod rtrace;
pub mod scaler;
pub mod selogger;
pub mod swap;
pub mod uftrace;
