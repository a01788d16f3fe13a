//! The listing of Scaler and SWAP traces, which have no text tool of their
//! own: uftrace's replay layout, with Scaler's sync-object ids and SWAP's
//! arguments and return values as the calls' arguments. The expectations
//! come from Scaler's reference dump (`reference/tree.txt`, written by an
//! independent decoder) and from the SWAP scenario's source
//! (`crates/core/examples/swap-scenarios/demo.rs`), not from our output.

mod common;

use common::{fixtures, read_folder};
use flamedrop_core::analysis::listing::{Listing, ListingOptions, RowKind};
use flamedrop_core::model::{Format, TimeUnit, TraceBuilder};
use flamedrop_core::{decode_files, Trace};

fn scaler_case(name: &str) -> (Trace, String) {
    let dir = fixtures().join("scaler").join(name);
    let files: Vec<(String, Vec<u8>)> = read_folder(&dir)
        .into_iter()
        .filter(|(path, _)| !path.contains("/reference/"))
        .collect();
    let trace = decode_files(&files).expect("decodes");
    let tree = std::fs::read_to_string(dir.join("reference/tree.txt")).expect("tree.txt");
    (trace, tree)
}

/// The reference's call records (not the per-thread root nodes).
fn tree_records(tree: &str) -> Vec<&str> {
    tree.lines()
        .filter(|l| l.starts_with("  ") && l.trim_start().starts_with('['))
        .collect()
}

/// Rows by kind: (entries, exits, leaves, others).
fn kinds(trace: &Trace, listing: &Listing) -> (usize, usize, usize, usize) {
    let mut counts = (0, 0, 0, 0);
    for row in 0..listing.len() {
        match listing.info(trace, row).kind {
            RowKind::Entry => counts.0 += 1,
            RowKind::Exit => counts.1 += 1,
            RowKind::Leaf => counts.2 += 1,
            _ => counts.3 += 1,
        }
    }
    counts
}

#[test]
fn scaler_rows_carry_the_sync_objects_as_arguments() {
    let (trace, tree) = scaler_case("a-prodcons-mutex-cond-sem");
    let listing = Listing::new(&trace, &ListingOptions::default()).expect("listing");
    let text = listing.text(&trace);
    let records = tree_records(&tree);
    assert_eq!(records.len(), 91);
    let (entries, exits, leaves, others) = kinds(&trace, &listing);
    assert_eq!(entries, exits);
    assert_eq!(entries + leaves, records.len(), "a row per call");
    assert_eq!(listing.len(), 2 * records.len() - leaves + others);
    // Every lock of the mutex the reference names is a row with its id.
    let mutex = "0x55f71d12b0a0";
    let locks = records
        .iter()
        .filter(|r| {
            r.contains("name=pthread_mutex_lock ") && r.contains(&format!("extra={mutex},"))
        })
        .count();
    assert!(locks > 5);
    assert_eq!(
        text.matches(&format!("pthread_mutex_lock({mutex})"))
            .count(),
        locks
    );
    // A condition wait shows the condition and the mutex it releases.
    let waits = records
        .iter()
        .filter(|r| {
            r.contains("name=pthread_cond_wait ")
                && r.contains("extra=0x55f71d12b0e0,0x55f71d12b0a0")
        })
        .count();
    assert!(waits > 0);
    let shown = "pthread_cond_wait(0x55f71d12b0e0, 0x55f71d12b0a0)";
    assert_eq!(text.matches(shown).count(), waits);
    // Durations are the reference's microseconds (thread_0x7f05e10d46c0.bin
    // [7]: dur=23).
    assert!(text.contains("  23.000 us [0x7f05e10d46c0] | pthread_mutex_lock(0x55f71d12b0a0);"));
    assert!(text.starts_with("# DURATION     TID     FUNCTION\n"));
}

#[test]
fn swap_rows_carry_the_probes_arguments_and_return_values() {
    let bytes = std::fs::read(fixtures().join("swap/demo.swap")).expect("demo.swap");
    let trace = decode_files(&[("demo.swap".to_owned(), bytes)]).expect("decodes");
    let listing = Listing::new(&trace, &ListingOptions::default()).expect("listing");
    let text = listing.text(&trace);
    // main(1, 0xbefff000) returns 0 (demo.rs, main_thread).
    assert!(text.contains("| gallery+0x1000(1, 0xbefff000) {\n"));
    assert!(text.contains("| } = 0; /* gallery+0x1000 */\n"));
    // Eight images at 0x2000000 + 0x10000 each, three memcpy calls each,
    // of 4096 bytes, returning their destination.
    for image in 0..8u64 {
        let address = 0x0200_0000 + image * 0x10000;
        let call = format!("libc-2.20.so+0x5000({address:#x}, 4096)");
        assert_eq!(text.matches(&call).count(), 3, "{call}");
        let returned = format!("= {address:#x}");
        assert_eq!(text.matches(&returned).count(), 3, "{returned}");
    }
}

/// A Scaler-shaped trace of `threads` threads whose calls interleave.
fn many_threads(threads: u32) -> Trace {
    let mut b = TraceBuilder::new(Format::Scaler, TimeUnit::Us);
    let p = b.process("1", "p");
    let outer = b.intern("outer");
    let inner = b.intern("pthread_mutex_lock");
    for t in 0..threads {
        let lane = b.thread(p, &format!("{:#x}", 0x7f00_0000 + t), "");
        for call in 0..20i64 {
            let start = call * 100 + i64::from(t);
            b.begin(lane, start, outer, 0);
            if call % 3 != 0 {
                b.begin(lane, start + 10, inner, 0);
                b.end(lane, start + 20 + i64::from(t % 7));
            }
            b.end(lane, start + 50);
        }
    }
    b.finish()
}

#[test]
fn a_trace_of_many_threads_lists_every_call_in_time_order() {
    let trace = many_threads(300);
    let listing = Listing::new(&trace, &ListingOptions::default()).expect("listing");
    let calls: usize = trace.threads.iter().map(|t| t.spans.len()).sum();
    let (entries, exits, leaves, _) = kinds(&trace, &listing);
    assert_eq!(entries, exits);
    assert_eq!(entries + leaves, calls);
    assert_eq!(listing.len(), 2 * calls - leaves);
    let mut last = i64::MIN;
    for row in 0..listing.len() {
        let info = listing.info(&trace, row);
        let time = info.time.expect("a time");
        assert!(time >= last, "row {row} goes back in time");
        last = time;
        if info.kind == RowKind::Entry {
            let exit = info.closed_by.expect("an entry folds to its exit");
            let closing = listing.info(&trace, exit);
            assert_eq!((closing.kind, closing.span), (RowKind::Exit, info.span));
        }
        if let (Some(thread), Some(span), RowKind::Entry | RowKind::Leaf) =
            (info.thread, info.span, info.kind)
        {
            assert_eq!(listing.row_of_span(&trace, thread, span), Some(row));
        }
    }
    // 300 threads calling at once: their calls interleave, so most calls
    // with a call inside them are split in an entry and an exit row.
    assert!(entries > 3000, "{entries} entries");
}
