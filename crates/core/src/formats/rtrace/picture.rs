//! sp-rtrace's pictures while it decodes (`Decoder::preview`): its calls
//! become spans only in `finish`, so the picture is made straight from the
//! session's calls instead of from a `TraceBuilder`. The finished trace's
//! timeline shows one lane of one-step spans (call `n` from time `n` to
//! `n + 1`, named by its function: `calls.rs`); the picture is that lane at
//! the preview's resolution: of each time bucket, its first call, which is
//! what `TraceBuilder::preview`'s rule keeps of spans one step long. Call
//! `n` stands at time `n`, so the calls kept are read by index: a picture
//! costs its few thousand spans whatever was decoded, and keeps nothing
//! between pictures (no cursor, no copy of the calls).
//!
//! The live counters are left out, as `TraceBuilder::preview` leaves every
//! format's counters out: their values need each release matched to its
//! allocation (`matching.rs`), state that grows with the blocks live, not
//! with the picture.

use super::session::Session;
use crate::model::{Format, PreviewLimits, Process, Spans, Thread, TimeUnit, Trace};
use std::collections::HashMap;

/// The picture's buckets per bucket of [`PreviewLimits`]. The finished lane
/// drawn whole is one band: its calls are narrower than a pixel and
/// touch, so the timeline merges them (`layout::rows`). Calls kept one per
/// bucket merge the same way only when they stand at most a pixel apart:
/// with 1,024 buckets a timeline wider than 1,024 px drew them as a comb;
/// with 4,096 one up to 4,096 px wide draws the band (and a picture holds
/// at most 8,192 spans).
const FINER: u32 = 4;

/// The process and the lane the finished trace puts the calls on:
/// (process id, process name, lane name), from PINF.
pub fn lane_names(session: &Session) -> (String, String, String) {
    let (pid, name) = session
        .process
        .as_ref()
        .map_or((String::from("?"), String::from("process")), |p| {
            (p.pid.to_string(), p.name.clone())
        });
    let lane = format!("{name} (all threads)");
    (pid, name, lane)
}

/// The calls of `session` so far as the finished trace's lane draws them,
/// reduced to `limits`.
pub fn picture(session: &Session, limits: &PreviewLimits) -> Trace {
    let calls = &session.collected;
    let count = calls.len();
    // Call index i is the span i + 1..i + 2, as `calls::build` makes it.
    let range = (count > 0).then(|| (1, count as i64 + 1));
    let finer = PreviewLimits {
        buckets: limits.buckets.saturating_mul(FINER),
        ..*limits
    };
    let bucket = usize::try_from(finer.bucket(range)).unwrap_or(usize::MAX);
    // Depth 0 is the only depth; none drawn when the limits allow none.
    let shown = if limits.depths == 0 {
        &[][..]
    } else {
        &calls[..]
    };
    let mut trace = Trace {
        format: Some(Format::SpRtrace),
        time_unit: Some(TimeUnit::Events),
        ..Trace::default()
    };
    // The session's function index → the picture's string id.
    let mut names: HashMap<u32, u32> = HashMap::new();
    let mut spans = Spans::default();
    for (index, call) in shown.iter().enumerate().step_by(bucket).take(limits.spans) {
        let function = session.class(call.class).function;
        let name = *names
            .entry(function)
            .or_insert_with(|| trace.strings.intern(session.function(function)));
        spans.start.push(index as i64 + 1);
        spans.end.push(index as i64 + 2);
        spans.depth.push(0);
        spans.name.push(name);
        spans.flags.push(0);
    }
    let (pid, process, lane) = lane_names(session);
    trace.processes.push(Process {
        id: pid.clone(),
        name: process,
    });
    trace.threads.push(Thread {
        id: pid,
        name: lane,
        process: 0,
        events: count as u64,
        spans,
        first_time: range.map(|r| r.0),
        last_time: range.map(|r| r.1),
        ..Thread::default()
    });
    trace
}
