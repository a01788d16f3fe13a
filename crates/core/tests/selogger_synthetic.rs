//! SELogger quirks on small hand-made folders: file rotation order, 0.4's
//! `CallParent`, a constructor left by an exception, a text stream without
//! header, damaged and truncated streams (every offset), chunking.

use flamedrop_core::analysis::report::report;
use flamedrop_core::input::decode_files_chunked;
use flamedrop_core::{decode_files, Trace};

/// 0.5-style static files: `A.f(int) : int` (method 0) calls `A.g()` (method 1).
const METHODS: &str =
    "ClassID,MethodID,ClassName,MethodName,MethodDesc,Access,SourceFileName,MethodHash\n\
0,0,p/A,f,(I)I,9,A.java,h0\n\
0,1,p/A,g,()V,9,A.java,h1\n\
0,2,p/A,<init>,()V,1,A.java,h2\n";

const DATAIDS: &str =
    "DataID,ClassID,MethodID,Line,InstructionIndex,EventType,ValueDesc,Attributes\n\
0,0,0,3,-1,RESERVED,V,\"null\"\n\
1,0,0,3,0,METHOD_ENTRY,V,\"methodtype=static\"\n\
2,0,0,3,0,METHOD_PARAM,I,\"index=0\"\n\
3,0,0,4,5,CALL,V,\"owner=p/A,name=g,desc=()V\"\n\
4,0,0,4,5,CALL_RETURN,V,\"owner=p/A,name=g,desc=()V\"\n\
5,0,0,5,9,METHOD_NORMAL_EXIT,I,\"null\"\n\
6,0,1,8,-1,RESERVED,V,\"null\"\n\
7,0,1,8,0,METHOD_ENTRY,V,\"methodtype=static\"\n\
8,0,1,9,3,METHOD_NORMAL_EXIT,V,\"null\"\n\
9,0,1,9,4,METHOD_EXCEPTIONAL_EXIT,Ljava/lang/Object;,\"location=exceptional-exit-rethrow\"\n\
10,0,2,12,-1,RESERVED,V,\"null\"\n\
11,0,2,12,0,METHOD_ENTRY,V,\"methodtype=constructor\"\n\
12,0,0,6,11,CATCH,Ljava/lang/Object;,\"blocktype=CATCH\"\n";

fn record(data: i32, thread: i32, value: i64) -> Vec<u8> {
    let mut r = data.to_be_bytes().to_vec();
    r.extend_from_slice(&thread.to_be_bytes());
    r.extend_from_slice(&value.to_be_bytes());
    r
}

/// f(7) on thread 0 calling g, which returns; 8 events.
fn f_calls_g(thread: i32) -> Vec<u8> {
    [
        record(1, thread, 0),
        record(2, thread, 7),
        record(3, thread, 0),
        record(7, thread, 0),
        record(8, thread, 0),
        record(4, thread, 0),
        record(5, thread, 49),
    ]
    .concat()
}

fn folder(streams: Vec<(&str, Vec<u8>)>) -> Vec<(String, Vec<u8>)> {
    let mut files = vec![
        ("out/methods.txt".to_owned(), METHODS.as_bytes().to_vec()),
        ("out/dataids.txt".to_owned(), DATAIDS.as_bytes().to_vec()),
    ];
    files.extend(streams.into_iter().map(|(n, d)| (format!("out/{n}"), d)));
    files
}

fn span_names(trace: &Trace, thread: usize) -> Vec<String> {
    let spans = &trace.threads[thread].spans;
    spans
        .name
        .iter()
        .map(|&n| trace.str(n).to_owned())
        .collect()
}

#[test]
fn a_call_site_nests_its_woven_callee_and_values_are_decoded() {
    let trace = decode_files(&folder(vec![("log-00001.slg", f_calls_g(0))])).expect("decodes");
    assert_eq!(span_names(&trace, 0), vec!["p.A.f", "call p.A.g", "p.A.g"]);
    let s = &trace.threads[0].spans;
    assert_eq!(s.depth, vec![0, 1, 2]);
    assert_eq!((s.start[0], s.end[0]), (0, 7));
    let f = s.details_of(0, &trace.strings);
    assert!(f.contains(&flamedrop_core::model::Field::new("param 0", "7")));
    assert!(f.contains(&flamedrop_core::model::Field::new("return", "49")));
    assert!(f.contains(&flamedrop_core::model::Field::new(
        "signature",
        "p.A.f(int) : int"
    )));
    assert_eq!(trace.threads[0].events, 7);
    assert!(trace.diagnostics.is_empty(), "{:?}", trace.diagnostics);
}

#[test]
fn rotated_files_are_read_in_numeric_order() {
    // log-00010 must come after log-00002 even though it sorts first as text.
    let whole = f_calls_g(0);
    let (first, second) = whole.split_at(3 * 16);
    let trace = decode_files(&folder(vec![
        ("log-00010.slg", second.to_vec()),
        ("log-00002.slg", first.to_vec()),
    ]))
    .expect("decodes");
    assert_eq!(span_names(&trace, 0), vec!["p.A.f", "call p.A.g", "p.A.g"]);
    assert_eq!(trace.threads[0].spans.end[0], 7);
}

#[test]
fn the_04_dialect_links_call_returns_by_call_parent() {
    // No header, Key=Value attributes; CALL_RETURN names its CALL (not adjacent here).
    let dataids = "0,0,0,-1,-1,RESERVED,V,p/A#f#()V#size=3\n\
1,0,0,0,0,METHOD_ENTRY,V,\n\
2,0,0,4,5,CALL,V,CallType=Static,Instruction=INVOKESTATIC,Owner=p/B,Name=h,Desc=()I\n\
3,0,0,4,6,LABEL,I,Label=L1\n\
4,0,0,4,5,CALL_RETURN,I,CallParent=2\n\
5,0,0,5,9,METHOD_NORMAL_EXIT,V,\n";
    let methods = "0,0,p/A,f,()V,9,A.java,h0\n";
    let stream = [
        record(1, 0, 0),
        record(2, 0, 0),
        record(4, 0, 3),
        record(5, 0, 0),
    ]
    .concat();
    let files = vec![
        ("o/dataids.txt".to_owned(), dataids.as_bytes().to_vec()),
        ("o/methods.txt".to_owned(), methods.as_bytes().to_vec()),
        ("o/log-00001.slg".to_owned(), stream),
    ];
    let trace = decode_files(&files).expect("decodes");
    assert_eq!(span_names(&trace, 0), vec!["p.A.f", "call p.B.h"]);
    let s = &trace.threads[0].spans;
    assert_eq!((s.start[1], s.end[1]), (1, 3));
    assert!(s
        .details_of(1, &trace.strings)
        .contains(&flamedrop_core::model::Field::new("return", "3")));
}

#[test]
fn a_constructor_left_by_an_exception_is_closed_when_its_caller_catches() {
    let stream = [
        record(1, 0, 0),  // f entry
        record(2, 0, 1),  // param
        record(11, 0, 0), // <init> entry, never exits
        record(12, 0, 5), // f catches
        record(5, 0, 0),  // f returns
    ]
    .concat();
    let trace = decode_files(&folder(vec![("log-00001.slg", stream)])).expect("decodes");
    assert_eq!(span_names(&trace, 0), vec!["p.A.f", "p.A.<init>"]);
    let s = &trace.threads[0].spans;
    assert_eq!(s.end[1], 3);
    assert_ne!(s.flags[1] & flamedrop_core::model::SPAN_CUT, 0);
    assert_eq!(trace.threads[0].instants.len(), 1, "the catch marker");
    let r = report(&trace);
    assert_eq!(r.functions.iter().map(|f| f.calls).sum::<u64>(), 2);
}

#[test]
fn an_exceptional_exit_closes_the_call_left_open() {
    let stream = [
        record(1, 0, 0),
        record(3, 0, 0),  // call g
        record(7, 0, 0),  // g entry
        record(9, 0, 0),  // g throws out
        record(12, 0, 0), // f catches: the call site had no CALL_RETURN
        record(5, 0, 0),
    ]
    .concat();
    let trace = decode_files(&folder(vec![("log-00001.slg", stream)])).expect("decodes");
    let s = &trace.threads[0].spans;
    assert_eq!(s.end, vec![6, 4, 4]);
    assert!(s
        .details_of(1, &trace.strings)
        .iter()
        .any(|f| f.key == "exception" && f.value.contains("no CALL_RETURN")));
    assert!(s
        .details_of(2, &trace.strings)
        .iter()
        .any(|f| f.key == "exception"));
}

#[test]
fn text_streams_with_and_without_header_and_timestamps() {
    let lines = ["0,1,0,0", "1,2,0,7", "2,5,0,49"];
    let plain = lines.join("\n");
    let header = format!("Seqnum,DataId,ThreadId,Value\n{plain}\n");
    let stamped = format!(
        "Seqnum,DataId,ThreadId,Value,Timestamp\n{}\n",
        lines
            .iter()
            .enumerate()
            .map(|(i, l)| format!("{l},{}", 1000 + i))
            .collect::<Vec<_>>()
            .join("\n")
    );
    for text in [plain, header, stamped.clone()] {
        let trace =
            decode_files(&folder(vec![("log-00001.txt", text.into_bytes())])).expect("decodes");
        assert_eq!(trace.threads[0].events, 3);
        assert_eq!(trace.threads[0].spans.end, vec![3]);
        assert!(trace.diagnostics.is_empty(), "{:?}", trace.diagnostics);
    }
    let trace =
        decode_files(&folder(vec![("log-00001.txt", stamped.into_bytes())])).expect("decodes");
    assert!(trace.threads[0]
        .spans
        .details_of(0, &trace.strings)
        .iter()
        .any(|f| f.key == "time (ms)"));
}

#[test]
fn damaged_text_lines_are_counted_with_their_offset_at_every_chunk_size() {
    // A damaged line, a bad value, a line longer than any real one (one bad
    // line whatever the chunking: its tail used to count again when a chunk
    // cut it) and a last line without its newline.
    let long = "9".repeat(5000);
    let text = format!("0,1,0,0\nnot an event\n1,2,0,x\n{long}\n2,5,0,49");
    let files = folder(vec![("log-00001.txt", text.into_bytes())]);
    let whole = decode_files(&files).expect("decodes");
    assert_eq!(whole.threads[0].events, 3);
    assert_eq!(whole.threads[0].spans.end, vec![3]);
    let bad = whole
        .diagnostics
        .iter()
        .find(|d| d.kind == "bad-line")
        .expect("bad lines");
    assert_eq!(bad.offset, Some(8));
    assert!(whole
        .diagnostics
        .iter()
        .any(|d| d.kind == "bad-value" && d.offset == Some(21)));
    for chunk in [1, 2, 7, 100, 4095, 4096, 4097, 6000] {
        let chunked = decode_files_chunked(&files, chunk).expect("decodes");
        assert_eq!(report(&chunked), report(&whole), "chunk {chunk}");
        assert_eq!(chunked.diagnostics, whole.diagnostics, "chunk {chunk}");
    }
}

#[test]
fn truncation_at_every_offset_never_panics_and_names_the_offset() {
    let whole = [f_calls_g(0), f_calls_g(1), f_calls_g(0)].concat();
    for cut in 0..=whole.len() {
        let files = folder(vec![("log-00001.slg", whole[..cut].to_vec())]);
        let trace = decode_files_chunked(&files, 5).expect("decodes");
        let events: u64 = trace.threads.iter().map(|t| t.events).sum();
        assert_eq!(events, (cut / 16) as u64, "cut at {cut}");
        let truncated = trace
            .diagnostics
            .iter()
            .find(|d| d.kind == "truncated-record");
        if cut % 16 == 0 {
            assert!(truncated.is_none(), "cut at {cut}");
        } else {
            let d = truncated.unwrap_or_else(|| panic!("cut at {cut}: no diagnostic"));
            assert_eq!(d.offset, Some((cut - cut % 16) as u64));
            assert_eq!(d.count, (cut % 16) as u64);
        }
        let _ = report(&trace);
    }
}

#[test]
fn unknown_data_ids_are_counted_not_drawn_and_chunking_changes_nothing() {
    let stream = [f_calls_g(0), record(999, 0, 0), record(-4, 77, 1)].concat();
    let files = folder(vec![("log-00001.slg", stream)]);
    let whole = decode_files(&files).expect("decodes");
    let d = whole
        .diagnostics
        .iter()
        .find(|d| d.kind == "unknown-data-id")
        .expect("unknown ids");
    assert_eq!((d.count, d.offset), (2, Some(7 * 16)));
    assert_eq!(whole.threads.len(), 1, "garbage thread ids open no lane");
    assert_eq!(whole.threads[0].events, 8);
    for chunk in [1, 3, 16, 17] {
        let chunked = decode_files_chunked(&files, chunk).expect("decodes");
        assert_eq!(report(&chunked), report(&whole), "chunk {chunk}");
    }
}

fn probe(path: &str, head: &[u8]) -> flamedrop_core::FileProbe {
    flamedrop_core::FileProbe {
        path: path.into(),
        size: head.len() as u64,
        head: head.to_vec(),
    }
}

#[test]
fn detection_is_by_content_so_renamed_files_are_recognised() {
    use flamedrop_core::{detect, Format};
    let v04 = b"0,0,0,-1,-1,RESERVED,V,demo/TraceDemo#<init>#(Ljava/lang/String;)V";
    assert_eq!(
        detect(&[probe("unknown", v04)]).ok(),
        Some(Format::Selogger)
    );
    let v06 = b"DataID,ClassID,MethodID,ClassName,MethodName,Line,Instr";
    assert_eq!(
        detect(&[probe("renamed.csv", v06)]).ok(),
        Some(Format::Selogger)
    );
    let json = b"{ \"format\":\"nearomni\", \"events\": [\n{\"loadedFrom\"";
    assert_eq!(detect(&[probe("x", json)]).ok(), Some(Format::Selogger));
    assert_eq!(
        detect(&[probe("out/log-00001.slg", &[0; 32])]).ok(),
        Some(Format::Selogger)
    );
    for other in [
        &b"a,b,c\n1,2,3\n"[..],
        b"{\"events\":[]}",
        b"0,1,2,3,4,5,6\n",
    ] {
        assert!(detect(&[probe("data.txt", other)]).is_err(), "{other:?}");
    }
}

#[test]
fn a_folder_with_only_frequencies_has_tables_and_no_lanes() {
    let files = vec![
        ("o/dataids.txt".to_owned(), DATAIDS.as_bytes().to_vec()),
        ("o/methods.txt".to_owned(), METHODS.as_bytes().to_vec()),
        ("o/eventfreq.txt".to_owned(), b"1,4\n7,2\n99,1\n".to_vec()),
    ];
    let trace = decode_files(&files).expect("decodes");
    assert!(trace.threads.is_empty());
    let hot = trace
        .tables
        .iter()
        .find(|t| t.id == "hot-methods")
        .expect("hot");
    assert_eq!(hot.rows[0][0], "p.A.f");
    assert_eq!(hot.rows[0][2], "4");
    let unknown = trace
        .diagnostics
        .iter()
        .find(|d| d.kind == "unknown-data-id")
        .expect("data id 99 is not in dataids.txt");
    assert_eq!(unknown.count, 1);
    let set = &trace.sample_sets[0];
    let frames: Vec<&str> = trace
        .stacks
        .frames(set.stack[0])
        .iter()
        .map(|&f| trace.str(f))
        .collect();
    assert_eq!(frames, vec!["p.A", "p.A.f", "line 3 METHOD_ENTRY"]);
}
