//! sp-rtrace's calls: the module that made each one.
//!
//! sp-rtrace records no call nesting: every traced call (`malloc`, `fopen`,
//! …) is one step with the backtrace it was made from, and the function
//! itself names no library. What a component view can say there is which
//! module made the calls: the frame just below the traced function in the
//! call's backtrace, when it names its module (`libc.so.6+0x4f8cc`). Only
//! allocations keep their backtrace in the model, so releases and calls
//! without a backtrace count for the program.

use crate::model::{Format, Trace, NO_PARENT};
use std::collections::HashMap;

/// Per (thread index, call time), the module that made the call; empty for
/// formats other than sp-rtrace.
pub(super) fn modules_making_calls(
    trace: &Trace,
    resources: &[Option<String>],
) -> HashMap<(u32, i64), String> {
    let mut out = HashMap::new();
    if trace.format != Some(Format::SpRtrace) {
        return out;
    }
    let stacks = &trace.stacks;
    for resource in &trace.allocations {
        let calls = resource
            .thread
            .iter()
            .zip(&resource.time)
            .zip(&resource.stack);
        for ((&thread, &time), &stack) in calls {
            // The leaf frame is the traced function; its caller made the call.
            let Some(&leaf) = stacks.frame.get(stack as usize) else {
                continue;
            };
            let caller = match resources.get(leaf as usize).cloned().flatten() {
                Some(module) => Some(module),
                None => stacks
                    .parent
                    .get(stack as usize)
                    .filter(|&&p| p != NO_PARENT)
                    .and_then(|&p| stacks.frame.get(p as usize))
                    .and_then(|&frame| resources.get(frame as usize).cloned().flatten()),
            };
            if let Some(module) = caller {
                out.insert((thread, time), module);
            }
        }
    }
    out
}
