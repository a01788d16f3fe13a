//! The synthetic SWAP fixtures (written by `examples/swap-scenarios/`)
//! decode with the right diagnostics and nothing else lost: sequence gaps
//! and wrap, unknown ids, slack, unmatched entries and exits, a truncated
//! tail, the pre-4.0 layout, MSG_SYSTEM with and without `swap.cpus`.

mod common;

use common::fixtures;
use flamedrop_core::analysis::report;
use flamedrop_core::input::{decode_files, detect, FileProbe};
use flamedrop_core::model::{Format, Trace, NEVER_FREED, SPAN_OFF_CPU};

fn read(name: &str) -> Vec<u8> {
    std::fs::read(fixtures().join("swap").join(name)).expect("swap fixture")
}

fn decode(files: &[(&str, Vec<u8>)]) -> Trace {
    let files: Vec<(String, Vec<u8>)> = files
        .iter()
        .map(|(n, b)| ((*n).to_owned(), b.clone()))
        .collect();
    decode_files(&files).expect("decodes as SWAP")
}

fn count(trace: &Trace, kind: &str) -> u64 {
    trace
        .diagnostics
        .iter()
        .filter(|d| d.kind == kind)
        .map(|d| d.count)
        .sum()
}

fn kinds(trace: &Trace) -> Vec<&str> {
    let mut k: Vec<&str> = trace.diagnostics.iter().map(|d| d.kind.as_str()).collect();
    k.sort_unstable();
    k
}

#[test]
fn gaps_wrap_unknown_ids_and_unmatched_calls_are_counted() {
    let trace = decode(&[("gaps-wrap-unknown.swap", read("gaps-wrap-unknown.swap"))]);
    assert_eq!(trace.format, Some(Format::Swap));
    assert_eq!(count(&trace, "dropped-messages"), 2);
    assert_eq!(count(&trace, "sequence-wrap"), 1);
    assert_eq!(count(&trace, "unknown-id"), 1);
    assert_eq!(count(&trace, "trailing-bytes"), 1);
    assert_eq!(count(&trace, "unmatched-exit"), 1);
    assert_eq!(count(&trace, "unmatched-entry"), 1);
    assert_eq!(
        kinds(&trace),
        [
            "dropped-messages",
            "sequence-wrap",
            "trailing-bytes",
            "unknown-id",
            "unmatched-entry",
            "unmatched-exit"
        ]
    );
    // Five entries survived; every one is a span, named through the binary's mapping.
    let main = &trace.threads[0];
    assert_eq!(main.spans.len(), 5);
    assert_eq!(trace.str(main.spans.name[0]), "gallery+0x0");
}

#[test]
fn a_truncated_tail_loses_only_the_cut_message() {
    let whole = decode(&[("legacy-3.0.swap", read("legacy-3.0.swap"))]);
    let cut = decode(&[("truncated.swap", read("truncated.swap"))]);
    assert_eq!(count(&cut, "truncated-message"), 1);
    let d = cut
        .diagnostics
        .iter()
        .find(|d| d.kind == "truncated-message")
        .expect("diagnostic");
    assert_eq!(d.offset, Some(read("legacy-3.0.swap").len() as u64 - 57));
    // The last exit was cut off: its call stays open to the end.
    assert_eq!(count(&cut, "open-at-end"), 1);
    assert_eq!(kinds(&cut), ["open-at-end", "truncated-message"]);
    let spans = |t: &Trace| t.threads.iter().map(|th| th.spans.len()).sum::<usize>();
    assert_eq!(spans(&whole), spans(&cut));
}

#[test]
fn pre_4_0_calls_are_read_and_syscalls_go_to_their_lane() {
    let trace = decode(&[("legacy-3.0.swap", read("legacy-3.0.swap"))]);
    assert!(trace.diagnostics.is_empty(), "{:?}", trace.diagnostics);
    assert!(trace
        .metadata
        .iter()
        .any(|(k, v)| k == "function call layout" && v.starts_with("pre-4.0")));
    let lane = |name: &str| trace.threads.iter().find(|t| t.name == name).expect(name);
    assert_eq!(lane("gallery").spans.len(), 1);
    let syscalls = lane("1234 syscalls");
    assert_eq!(syscalls.spans.len(), 1);
    // Probe type 3 is a system call, named as a 4.x MSG_SYSCALL_ENTRY is.
    assert_eq!(trace.str(syscalls.spans.name[0]), "syscall 0xc0001000");
}

#[test]
fn system_messages_need_swap_cpus_when_the_cpu_count_cannot_be_inferred() {
    let stream = read("no-cpu-count/stream.swap");
    let without = decode(&[("stream.swap", stream.clone())]);
    assert_eq!(count(&without, "system-layout-unknown"), 3);
    let d = without
        .diagnostics
        .iter()
        .find(|d| d.kind == "system-layout-unknown")
        .expect("diagnostic");
    assert!(d.message.contains("swap.cpus"));
    assert!(without.counters.is_empty());

    let with = decode(&[
        ("stream.swap", stream),
        ("swap.cpus", read("no-cpu-count/swap.cpus")),
    ]);
    assert!(with.diagnostics.is_empty(), "{:?}", with.diagnostics);
    let load = with
        .counters
        .iter()
        .find(|c| c.name == "CPU 1 load")
        .expect("CPU 1 load");
    assert_eq!(load.value.len(), 3);
    assert!(with.counters.iter().all(|c| !c.name.starts_with("CPU 2")));
}

#[test]
fn the_demo_has_functions_samples_counters_memory_and_files() {
    let trace = decode(&[("gallery.swap", read("demo.swap"))]);
    assert_eq!(kinds(&trace), ["lsan-report", "target-error"]);
    assert!(trace
        .metadata
        .iter()
        .any(|(k, v)| k == "MSG_SYSTEM layout" && v.starts_with("2 CPUs, 5 energy devices")));
    let with_spans = trace.threads.iter().filter(|t| !t.spans.is_empty()).count();
    assert!(with_spans >= 2);
    // Samples per thread: the open calls (main, load, decode, memcpy) then the pc.
    assert_eq!(trace.sample_sets.len(), 2);
    let main_samples = &trace.sample_sets[0];
    let deepest = main_samples
        .stack
        .iter()
        .map(|&s| trace.stacks.frames(s).len())
        .max();
    assert_eq!(deepest, Some(5));
    // Off-CPU time of the worker, from the context switches.
    let worker = trace
        .threads
        .iter()
        .find(|t| t.id == "1240")
        .expect("worker");
    assert_eq!(
        worker
            .spans
            .flags
            .iter()
            .filter(|f| *f & SPAN_OFF_CPU != 0)
            .count(),
        10
    );
    // Counters: 2 cores × (load, frequency) and more.
    for name in [
        "CPU 0 load",
        "CPU 1 frequency",
        "system memory used",
        "pid 1234 PSS",
        "thread 1240 load",
        "energy: LCD",
    ] {
        assert!(
            trace.counters.iter().any(|c| c.name == name),
            "no counter {name}"
        );
    }
    // Memory: 8 image buffers (4 freed) and 10 worker blocks (all freed).
    let memory = trace
        .allocations
        .iter()
        .find(|a| a.resource == "memory")
        .expect("memory");
    assert_eq!(memory.len(), 18);
    assert_eq!(
        memory
            .free_time
            .iter()
            .filter(|&&t| t == NEVER_FREED)
            .count(),
        4
    );
    let fds = trace
        .allocations
        .iter()
        .find(|a| a.resource == "file descriptor")
        .expect("fds");
    assert_eq!(
        fds.free_time.iter().filter(|&&t| t == NEVER_FREED).count(),
        1
    );
    let files = trace
        .tables
        .iter()
        .find(|t| t.id == "file-activity")
        .expect("file table");
    assert_eq!(files.rows.len(), 23);
    let r = report(&trace);
    assert!(r
        .functions
        .iter()
        .any(|f| f.name == "gallery+0x3000" && f.calls == 24));
}

#[test]
fn garbage_inside_the_stream_is_skipped_to_the_next_header() {
    let mut bytes = read("legacy-3.0.swap");
    let good = decode(&[("a.swap", bytes.clone())]);
    // The second message starts after PROCESS_INFO; put junk before it.
    let first_len = 20 + u32::from_le_bytes(bytes[16..20].try_into().expect("4 bytes")) as usize;
    bytes.splice(first_len..first_len, [0xffu8; 37]);
    let trace = decode(&[("a.swap", bytes)]);
    assert_eq!(count(&trace, "bad-header"), 1);
    let d = trace
        .diagnostics
        .iter()
        .find(|d| d.kind == "bad-header")
        .expect("diagnostic");
    assert_eq!(d.offset, Some(first_len as u64));
    let spans = |t: &Trace| t.threads.iter().map(|th| th.spans.len()).sum::<usize>();
    assert_eq!(spans(&trace), spans(&good));
}

#[test]
fn detection_claims_swap_streams_and_nothing_else() {
    let probe = |path: &str, bytes: &[u8]| FileProbe {
        path: path.into(),
        size: bytes.len() as u64,
        head: bytes[..bytes.len().min(64)].to_vec(),
    };
    let demo = read("demo.swap");
    assert_eq!(detect(&[probe("x.bin", &demo)]), Ok(Format::Swap));
    let uftrace = std::fs::read(fixtures().join("uftrace/a-simple-nested/uftrace.data/17763.dat"))
        .expect("uftrace data");
    assert!(detect(&[probe("17763.dat", &uftrace)]).is_err());
    assert!(detect(&[probe(
        "notes.txt",
        b"SESS timestamp=1 pid=2 sid=abc exename=\"x\"\n"
    )])
    .is_err());
    assert!(detect(&[probe("zeros", &[0u8; 64])]).is_err());
}

/// The messages of a stream, each with its header.
fn messages(bytes: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(len) = bytes.get(at + 16..at + 20) {
        let end = at + 20 + u32::from_le_bytes(len.try_into().expect("4 bytes")) as usize;
        out.push(&bytes[at..end]);
        at = end;
    }
    out
}

fn time_of(message: &[u8]) -> u64 {
    let word = |at: usize| {
        u64::from(u32::from_le_bytes(
            message[at..at + 4].try_into().expect("4 bytes"),
        ))
    };
    word(8) * 1_000_000_000 + word(12)
}

#[test]
fn a_stream_out_of_time_order_decodes_as_the_same_stream_in_order() {
    let bytes = read("demo.swap");
    let mut shuffled: Vec<&[u8]> = messages(&bytes);
    // Swap every third pair of neighbours with different times, and move
    // some messages a few places later, as per-CPU buffers do (only past
    // later times: messages of the same time stay in stream order).
    let mut moved = 0;
    for i in (0..shuffled.len().saturating_sub(6)).step_by(3) {
        if time_of(shuffled[i]) < time_of(shuffled[i + 1]) {
            shuffled.swap(i, i + 1);
            moved += 1;
        }
        let later = |m: &[u8]| time_of(shuffled[i + 2]) < time_of(m);
        if i % 9 == 0 && shuffled[i + 3..=i + 5].iter().all(|m| later(m)) {
            let m = shuffled.remove(i + 2);
            shuffled.insert(i + 5, m);
        }
    }
    assert!(moved > 100, "only {moved} messages moved");
    let reordered: Vec<u8> = shuffled.concat();
    assert_ne!(reordered, bytes);
    let sorted = decode(&[("a.swap", bytes)]);
    let trace = decode(&[("a.swap", reordered)]);
    // Only where the first of each problem sits in the stream differs.
    let without_offsets = |t: &Trace| {
        let mut t = t.clone();
        for d in &mut t.diagnostics {
            d.offset = None;
        }
        serde_json::to_string(&t).expect("serialises")
    };
    assert_eq!(without_offsets(&trace), without_offsets(&sorted));
    assert_eq!(count(&trace, "out-of-order"), 0);
}
