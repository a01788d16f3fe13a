//! The SELogger listing (`flamedrop replay` of an omniscient trace) against
//! SELogger's own `selogger.reader.LogPrinter` of the release that recorded
//! it: byte for byte for every binary case, with and without
//! `-processparams`; `-thread=`, checked against the reference filtered by
//! thread (LogPrinter reads every event the same way and only skips the
//! other threads' lines when printing, see `ReaderOrder`); the text streams
//! in the same layout; near-omniscient and frequency output refused.

mod common;

use common::{fixtures, read_folder, reference};
use flamedrop_core::analysis::listing::{Listing, ListingError, ListingOptions, RowKind};
use flamedrop_core::{decode_files, Trace};

const GROUP: &str = "selogger";

/// The binary cases that hold a LogPrinter reference.
const BINARY: [&str; 4] = [
    "demo-v040-omni",
    "demo-v051-omnibinary",
    "demo-v060-omnibinary",
    "bridge-v060-omnibinary",
];

/// The binary cases that also hold a `-processparams` reference.
const WITH_PARAMS: [&str; 3] = [
    "demo-v040-omni",
    "demo-v051-omnibinary",
    "demo-v060-omnibinary",
];

fn decode(case: &str) -> Trace {
    common::checked(
        decode_files(&read_folder(&fixtures().join(GROUP).join(case))).expect("decodes"),
    )
}

fn listing_text(trace: &Trace, options: &ListingOptions) -> String {
    Listing::new(trace, options).expect("a listing").text(trace)
}

/// The first line where two texts differ, for a readable failure.
fn first_difference(ours: &str, theirs: &str) -> String {
    let mut lines = ours.lines().zip(theirs.lines()).enumerate();
    match lines.find(|(_, (a, b))| a != b) {
        Some((at, (a, b))) => format!("line {}:\n ours: {a}\ntheirs: {b}", at + 1),
        None => format!(
            "{} lines against {} (or line ends)",
            ours.lines().count(),
            theirs.lines().count()
        ),
    }
}

fn assert_same(ours: &str, theirs: &str, label: &str) {
    assert!(
        ours == theirs,
        "{label}: {}",
        first_difference(ours, theirs)
    );
}

#[test]
fn every_binary_case_prints_what_logprinter_prints() {
    for case in BINARY {
        let trace = decode(case);
        let ours = listing_text(&trace, &ListingOptions::default());
        let theirs = reference(GROUP, case, "LogPrinter.txt");
        assert_same(&ours, &theirs, case);
    }
}

#[test]
fn processparams_prints_what_logprinter_prints() {
    for case in WITH_PARAMS {
        let trace = decode(case);
        let mut options = ListingOptions::default();
        options.log_printer.process_params = true;
        let ours = listing_text(&trace, &options);
        let theirs = reference(GROUP, case, "LogPrinter-processparams.txt");
        assert_same(&ours, &theirs, case);
    }
}

/// The reference's lines of the threads in `threads`, each record with the
/// `  param[…]` lines under it.
fn filtered_by_thread(text: &str, threads: &[&str]) -> String {
    let mut out = String::new();
    let mut keep = false;
    for line in text.split_inclusive('\n') {
        if !line.starts_with("  param[") {
            let thread = line.split(',').find_map(|f| f.strip_prefix("ThreadId="));
            keep = thread.is_some_and(|t| threads.contains(&t));
        }
        if keep {
            out.push_str(line);
        }
    }
    out
}

#[test]
fn thread_option_prints_the_lines_of_those_threads() {
    for (case, reference_name, process_params) in [
        ("demo-v060-omnibinary", "LogPrinter.txt", false),
        ("demo-v051-omnibinary", "LogPrinter-processparams.txt", true),
        ("demo-v040-omni", "LogPrinter-processparams.txt", true),
    ] {
        let trace = decode(case);
        let mut options = ListingOptions::default();
        options.log_printer.process_params = process_params;
        options.log_printer.threads = Some(vec![1, 3]);
        let ours = listing_text(&trace, &options);
        let theirs = filtered_by_thread(&reference(GROUP, case, reference_name), &["1", "3"]);
        assert!(
            theirs.lines().count() > 2000,
            "{case}: threads 1 and 3 have events"
        );
        assert_same(&ours, &theirs, case);
    }
}

#[test]
fn from_and_num_cut_the_reference() {
    let case = "demo-v060-omnibinary";
    let trace = decode(case);
    let mut options = ListingOptions::default();
    options.log_printer.from = 100;
    options.log_printer.num = Some(50);
    let ours = listing_text(&trace, &options);
    let theirs: String = reference(GROUP, case, "LogPrinter.txt")
        .split_inclusive('\n')
        .skip(100)
        .take(50)
        .collect();
    assert_same(&ours, &theirs, case);
}

/// A line with its `EventId=`, thread and value fields taken out: what
/// must agree between two streams of one program run twice (the threads
/// of a run number themselves in the order they first record an event).
fn shape(line: &str) -> String {
    line.split(',')
        .filter(|f| !f.starts_with("EventId=") && !f.starts_with("Value="))
        .filter(|f| !f.starts_with("ThreadId=") && !f.starts_with("objectType="))
        .collect::<Vec<_>>()
        .join(",")
}

/// Pairs of (text stream, binary stream) of one program and release; the
/// bridge program has one thread and a fixed workload, so its two
/// recordings are the same events.
const TEXT_AND_BINARY: [(&str, &str); 4] = [
    ("demo-v051-omni-text", "demo-v051-omnibinary"),
    ("demo-v060-omni-text", "demo-v060-omnibinary"),
    ("demo-v060-omni-text-timestamp", "demo-v060-omnibinary"),
    ("bridge-v060-omni-text", "bridge-v060-omnibinary"),
];

#[test]
fn text_streams_print_in_the_same_layout() {
    for (text_case, binary_case) in TEXT_AND_BINARY {
        let text = listing_text(&decode(text_case), &ListingOptions::default());
        let binary = reference(GROUP, binary_case, "LogPrinter.txt");
        // Every line has the layout of a LogPrinter line: its EventId is its
        // place, and each (type, data id, place) of the text stream is one
        // that LogPrinter printed for the binary stream of the same release.
        let known: std::collections::BTreeSet<String> = binary.lines().map(shape).collect();
        for (at, line) in text.lines().enumerate() {
            assert!(
                line.starts_with(&format!("EventId={at},EventType=")),
                "{text_case}: {line}"
            );
            assert!(known.contains(&shape(line)), "{text_case}: {line}");
        }
        if text_case.starts_with("bridge") {
            assert_same(&text, &binary, text_case);
        }
    }
}

#[test]
fn text_stream_lines_that_the_data_gives() {
    let trace = decode("demo-v060-omni-text");
    let listing = Listing::new(&trace, &ListingOptions::default()).expect("a listing");
    // The first line of log-00001.txt after its header is `0,1389,0,0`:
    // data id 1389 is TraceDemo.<clinit>'s METHOD_ENTRY (dataids.txt), its
    // methods.txt row is method 15.
    assert_eq!(
        listing.row_text(&trace, 0),
        "EventId=0,EventType=METHOD_ENTRY,ThreadId=0,DataId=1389,Value=0,method:0,15,demo/TraceDemo,<clinit>,()V,8,TraceDemo.java,24c2843e4fcf45fb3c4b6f88592dbf44cfd874a2,,,demo/TraceDemo:<clinit>,TraceDemo.java:27:0"
    );
    // `3,1392,0,1`: an OBJECT_CONSTANT_LOAD of object 1, which
    // LOG$ObjectTypes00001.txt gives type 10, java.lang.String in LOG$Types.txt.
    assert_eq!(
        listing.row_text(&trace, 3),
        "EventId=3,EventType=OBJECT_CONSTANT_LOAD,ThreadId=0,DataId=1392,Value=1,objectType=java.lang.String,demo/TraceDemo:<clinit>,TraceDemo.java:27:2"
    );
}

#[test]
fn rows_tell_the_page_their_thread_span_and_nesting() {
    let trace = decode("demo-v060-omnibinary");
    let listing = Listing::new(&trace, &ListingOptions::default()).expect("a listing");
    assert_eq!(listing.len(), 7394);
    let entry = listing.info(&trace, 0);
    assert_eq!(entry.kind, RowKind::Entry);
    assert_eq!(
        (entry.thread, entry.span, entry.time),
        (Some(0), Some(0), Some(0))
    );
    // TraceDemo.<clinit> ends with its METHOD_NORMAL_EXIT, EventId 10.
    assert_eq!(entry.closed_by, Some(10));
    assert_eq!(listing.info(&trace, 10).kind, RowKind::Exit);
    assert_eq!(listing.row_of_span(&trace, 0, 0), Some(0));
    let name = entry.name.map(|n| trace.str(n).to_owned());
    assert!(name.is_some_and(|n| n.contains("TraceDemo")));
    let label = listing.info(&trace, 1);
    assert_eq!((label.kind, label.span), (RowKind::Event, Some(0)));
}

#[test]
fn outputs_without_an_event_sequence_have_no_listing() {
    for case in [
        "demo-v040-freq",
        "demo-v040-nearomni-json",
        "demo-v051-nearomni-json",
        "demo-v060-nearomni-txt",
        "demo-v060-freq",
    ] {
        let trace = decode(case);
        match Listing::new(&trace, &ListingOptions::default()) {
            Err(ListingError::Unavailable(why)) => assert!(why.contains("no event sequence")),
            other => panic!("{case}: {:?}", other.map(|l| l.len())),
        }
    }
}
