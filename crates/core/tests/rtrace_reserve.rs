//! sp-rtrace's build reserves its columns exactly (issue 20: the page's
//! memory keeps its high-water mark): the detail groups and payload, the
//! allocations and the live counters of every fixture, whole and in parts,
//! end as long as they were made. This holds the counting in
//! `formats/rtrace/reserve.rs` and `call_details.rs` to what the build writes.

mod common;

use common::{fixtures, rtrace_cases, rtrace_file};
use flamedrop_core::input::{decode_files_chunked, decode_files_in_parts_chunked};
use flamedrop_core::Trace;

/// (column, length, capacity) of every column the build reserves.
fn columns(trace: &Trace) -> Vec<(String, usize, usize)> {
    let mut out = Vec::new();
    let mut add = |name: String, len: usize, capacity: usize| out.push((name, len, capacity));
    for (t, thread) in trace.threads.iter().enumerate() {
        let d = &thread.spans.details;
        add(
            format!("thread {t} detail owner"),
            d.owner.len(),
            d.owner.capacity(),
        );
        add(
            format!("thread {t} detail shape"),
            d.shape.len(),
            d.shape.capacity(),
        );
        add(
            format!("thread {t} detail first"),
            d.first.len(),
            d.first.capacity(),
        );
        add(
            format!("thread {t} payload"),
            d.payload.len(),
            d.payload.capacity(),
        );
    }
    for a in &trace.allocations {
        let r = &a.resource;
        // The one lane's allocations keep one thread entry for all.
        let one = a.thread.len() == 1;
        add(format!("{r} thread"), usize::from(!one), 0);
        add(format!("{r} time"), a.time.len(), a.time.capacity());
        add(format!("{r} size"), a.size.len(), a.size.capacity());
        add(
            format!("{r} address"),
            a.address.len(),
            a.address.capacity(),
        );
        add(format!("{r} stack"), a.stack.len(), a.stack.capacity());
        add(
            format!("{r} free"),
            a.free_time.len(),
            a.free_time.capacity(),
        );
        add(
            format!("{r} context"),
            a.context.len(),
            a.context.capacity(),
        );
    }
    for c in &trace.counters {
        add(format!("{} time", c.name), c.time.len(), c.time.capacity());
        add(
            format!("{} value", c.name),
            c.value.len(),
            c.value.capacity(),
        );
    }
    out
}

fn assert_exact(trace: &Trace, label: &str) {
    let loose: Vec<_> = columns(trace)
        .into_iter()
        .filter(|(_, len, capacity)| len != capacity)
        .collect();
    assert!(
        loose.is_empty(),
        "{label}: columns not reserved exactly: {loose:?}"
    );
}

#[test]
fn every_rtrace_fixture_reserves_its_columns_exactly() {
    let elf = fixtures().join("rtrace").join("elf");
    for case in rtrace_cases() {
        let mut files = vec![rtrace_file(&case)];
        for name in ["leaks", "files", "threads"] {
            if let Ok(bytes) = std::fs::read(elf.join(name)) {
                files.push((format!("elf/{name}"), bytes));
            }
        }
        let whole = decode_files_chunked(&files, 777).expect("decodes");
        assert!(!whole.allocations.is_empty(), "{case}: allocations");
        assert_exact(&whole, &case);
        for parts in [2, 3] {
            let joined = decode_files_in_parts_chunked(&files, parts, 333).expect("decodes");
            assert_exact(&joined, &format!("{case} in {parts} parts"));
        }
    }
}
