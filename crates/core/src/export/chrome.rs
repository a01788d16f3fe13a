//! Chrome trace event JSON: one complete (`X`) event per span, instant (`i`)
//! events for markers, and metadata events naming processes and threads.

use crate::model::{TimeUnit, Trace, SPAN_OPEN_AT_END};
use std::fmt::Write;

/// The trace as a Chrome trace JSON object (timestamps in microseconds).
pub fn to_chrome_json(trace: &Trace) -> String {
    let scale = match trace.time_unit {
        Some(TimeUnit::Ns) => 0.001,
        _ => 1.0,
    };
    let mut out = String::with_capacity(1 << 16);
    out.push_str("{\"traceEvents\":[\n");
    let mut first = true;
    let mut sep = |out: &mut String| {
        if !std::mem::take(&mut first) {
            out.push_str(",\n");
        }
    };
    for (p, process) in trace.processes.iter().enumerate() {
        sep(&mut out);
        let _ = write!(
            out,
            "{{\"ph\":\"M\",\"pid\":{},\"tid\":0,\"name\":\"process_name\",\"args\":{{\"name\":{}}}}}",
            numeric_id(&process.id, p),
            json(&process.name)
        );
    }
    for (t, thread) in trace.threads.iter().enumerate() {
        let pid = trace
            .processes
            .get(thread.process as usize)
            .map_or(0, |p| numeric_id(&p.id, thread.process as usize));
        let tid = numeric_id(&thread.id, t);
        sep(&mut out);
        let _ = write!(
            out,
            "{{\"ph\":\"M\",\"pid\":{pid},\"tid\":{tid},\"name\":\"thread_name\",\"args\":{{\"name\":{}}}}}",
            json(&format!("{} {}", thread.name, thread.id))
        );
        let s = &thread.spans;
        for i in 0..s.len() {
            sep(&mut out);
            let _ = write!(
                out,
                "{{\"ph\":\"X\",\"pid\":{pid},\"tid\":{tid},\"ts\":{},\"dur\":{},\"name\":{}",
                s.start[i] as f64 * scale,
                (s.end[i] - s.start[i]) as f64 * scale,
                json(trace.str(s.name[i]))
            );
            let details = s.details_of(i as u32);
            if !details.is_empty() || s.flags[i] & SPAN_OPEN_AT_END != 0 {
                out.push_str(",\"args\":{");
                let mut fields: Vec<String> = details
                    .iter()
                    .map(|f| format!("{}:{}", json(&f.key), json(&f.value)))
                    .collect();
                if s.flags[i] & SPAN_OPEN_AT_END != 0 {
                    fields.push("\"open_at_end\":true".into());
                }
                out.push_str(&fields.join(","));
                out.push('}');
            }
            out.push('}');
        }
        for i in 0..thread.instants.len() {
            sep(&mut out);
            let _ = write!(
                out,
                "{{\"ph\":\"i\",\"s\":\"t\",\"pid\":{pid},\"tid\":{tid},\"ts\":{},\"name\":{}}}",
                thread.instants.time[i] as f64 * scale,
                json(trace.str(thread.instants.name[i]))
            );
        }
    }
    out.push_str("\n],\"displayTimeUnit\":\"ns\",\"otherData\":{");
    let meta: Vec<String> = trace
        .metadata
        .iter()
        .map(|(k, v)| format!("{}:{}", json(k), json(v)))
        .collect();
    out.push_str(&meta.join(","));
    out.push_str("}}\n");
    out
}

fn numeric_id(id: &str, fallback: usize) -> u64 {
    id.parse().unwrap_or(fallback as u64)
}

fn json(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}
