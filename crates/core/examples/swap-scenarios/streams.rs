//! The small fixture streams: sequence gaps and wrap, and MSG_SYSTEM whose
//! CPU count cannot be inferred.

use crate::scenario::*;
use flamedrop_core::formats::swap::messages::*;
use flamedrop_core::formats::swap::values::Value;

/// Sequence gaps, a wrap, an unknown id, trailing slack.
pub fn gaps_and_wrap() -> Vec<Frame> {
    let mut s = Scenario::default();
    s.at(0, process_info());
    for i in 0..6 {
        s.at(
            1000 + i * 1000,
            entry(PID, PID, BIN_LOW + 0x100 * i as u64, vec![]),
        );
    }
    for i in (0..6).rev() {
        s.at(
            20_000 - i * 1000,
            exit(PID, PID, BIN_LOW + 0x100 * i as u64, Value::Int(0)),
        );
    }
    s.at(
        30_000,
        Message::Unknown {
            id: 0x0042,
            payload: vec![1, 2, 3, 4],
        },
    );
    let mut frames = s.frames(u32::MAX - 5);
    // Drop two numbered messages: the target lost them.
    frames.remove(9);
    frames.remove(3);
    if let Some(f) = frames.get_mut(1) {
        f.slack = 12;
    }
    frames
}

/// MSG_SYSTEM written without the daemon's slack: the CPU count cannot be
/// inferred and needs `swap.cpus`.
pub fn no_cpu_count() -> Vec<Frame> {
    let mut s = Scenario::default();
    s.at(0, process_info());
    for i in 0..3 {
        s.at(i * 10_000_000, system(i * 10_000_000));
    }
    let mut frames = s.frames(0);
    for f in &mut frames {
        f.slack = 0;
    }
    frames
}
