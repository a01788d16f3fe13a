//! Golden tests of sp-rtrace's listing: for every shared sp-rtrace fixture,
//! the listing with the options of each `reference/postproc*.txt` (read from
//! the case's `COMMANDS.txt`) equals what `sp-rtrace-postproc` printed, byte
//! for byte.
//!
//! The references of the 1.6 post-processor (`postproc-v1.6*.txt`) are
//! compared with `release` 1.6; every reference of every case is compared.
//!
//! `-r` references are compared with the ELF files of `rtrace/elf/` dropped
//! beside the trace (`leaks`, `files`, `threads`, built from the cases'
//! sources). A frame of a module whose file is not there (the recording
//! machine's libc and sp-rtrace file module) is named `from <module>` by the
//! listing; the resolver named 10 of them (over the 4 `-r` references) from
//! those files (at wrong offsets, notes §7), so in those lines only the name
//! is taken out of the reference — nothing else (the test counts them).
//!
//! Nothing else is normalized: even the two heap values a 64-bit
//! post-processor reads past c-leaks' 48-byte HINF packet are replayed by
//! the decoder.
//! The header's `timestamp=` is printed in UTC (postproc prints local time;
//! the references were made with `TZ=UTC`).

mod common;

use common::{fixtures, read_folder};
use flamedrop_core::analysis::listing::{
    parse_hex_mask, Listing, ListingOptions, PostprocOptions, PostprocRelease, PostprocSort,
    RowKind,
};
use flamedrop_core::model::codec;
use flamedrop_core::{decode_files, Trace};

/// The cases that have post-processor references, by name.
fn cases_with_commands() -> Vec<String> {
    let group = fixtures().join("rtrace");
    let mut names: Vec<String> = std::fs::read_dir(&group)
        .expect("rtrace fixtures")
        .filter_map(|e| Some(e.ok()?.file_name().to_string_lossy().into_owned()))
        .filter(|name| group.join(name).join("reference/COMMANDS.txt").is_file())
        .collect();
    names.sort();
    names
}

/// The case's folder decoded as the CLI opens it, with the ELF files of
/// `rtrace/elf/` dropped beside it.
fn decode(case: &str) -> Trace {
    let mut files = read_folder(&fixtures().join("rtrace").join(case));
    files.extend(read_folder(&fixtures().join("rtrace/elf")));
    common::checked(decode_files(&files).expect("decodes"))
}

/// The ELF files the tests drop beside the traces, by file name.
fn dropped_elves() -> Vec<String> {
    std::fs::read_dir(fixtures().join("rtrace/elf"))
        .expect("elf folder")
        .filter_map(|e| Some(e.ok()?.file_name().to_string_lossy().into_owned()))
        .collect()
}

/// A `-r` reference with the names taken out of the frames of modules whose
/// ELF file is not dropped (see the module doc).
fn without_foreign_names(reference: &str) -> String {
    let elves = dropped_elves();
    reference
        .split_inclusive('\n')
        .map(|line| {
            let frame = line.starts_with("\t0x");
            let (Some((head, module)), true) = (line.rsplit_once(" from "), frame) else {
                return line.to_owned();
            };
            let file = module.trim_end().rsplit('/').next().unwrap_or("");
            if elves.iter().any(|e| e == file) {
                return line.to_owned();
            }
            let address = head.split(' ').next().unwrap_or(head);
            format!("{address} from {module}")
        })
        .collect()
}

/// One line of `COMMANDS.txt`: the reference file, postproc's options, and
/// which build made it.
struct Command {
    file: String,
    options: Vec<String>,
    build: String,
}

fn commands(case: &str) -> Vec<Command> {
    let text = std::fs::read_to_string(
        fixtures()
            .join("rtrace")
            .join(case)
            .join("reference/COMMANDS.txt"),
    )
    .expect("COMMANDS.txt");
    text.lines()
        .filter_map(|line| {
            let (file, rest) = line.split_once(": ")?;
            let (command, build) = rest.split_once('[')?;
            let words: Vec<String> = command.split_whitespace().map(str::to_owned).collect();
            // TZ=UTC sp-rtrace-postproc -i FILE options…
            let options = words.get(4..).map(<[String]>::to_vec).unwrap_or_default();
            Some(Command {
                file: file.to_owned(),
                options,
                build: build.to_owned(),
            })
        })
        .collect()
}

fn options(command: &Command) -> PostprocOptions {
    let mut options = PostprocOptions::default();
    if command.build.starts_with("sp-rtrace 1.6") {
        options.release = PostprocRelease::V1_6;
    }
    let mut words = command.options.iter();
    while let Some(word) = words.next() {
        let mut value = || words.next().expect("option value").clone();
        match word.as_str() {
            "-l" => options.leaks = true,
            "-c" => options.compress = true,
            "-s" => options.sort = Some(PostprocSort::parse(&value()).expect("sort")),
            "-C" => options.context = Some(parse_hex_mask(&value()).expect("mask")),
            "-R" => options.resources = Some(parse_hex_mask(&value()).expect("mask")),
            "-b" => options.depth = Some(value().parse().expect("depth")),
            "-r" => options.resolve = true,
            other => panic!("option {other} not mapped"),
        }
    }
    options
}

#[test]
fn every_supported_postproc_reference_is_printed_byte_for_byte() {
    let (mut compared, mut failed) = (0, Vec::new());
    let mut unnamed = 0;
    for case in cases_with_commands() {
        let trace = decode(&case);
        for command in commands(&case) {
            let path = fixtures()
                .join("rtrace")
                .join(&case)
                .join("reference")
                .join(&command.file);
            let Ok(reference) = std::fs::read_to_string(&path) else {
                continue;
            };
            let listing_options = ListingOptions {
                postproc: options(&command),
                ..ListingOptions::default()
            };
            let listing = Listing::new(&trace, &listing_options).expect("a listing");
            let ours = listing.text(&trace);
            compared += 1;
            let reference = if listing_options.postproc.resolve {
                let kept = without_foreign_names(&reference);
                unnamed += kept
                    .lines()
                    .zip(reference.lines())
                    .filter(|(a, b)| a != b)
                    .count();
                kept
            } else {
                reference
            };
            if ours != reference {
                let first = ours
                    .lines()
                    .zip(reference.lines())
                    .position(|(a, b)| a != b)
                    .unwrap_or(ours.lines().count().min(reference.lines().count()));
                failed.push(format!(
                    "{case}/{} differs at line {}: ours {:?}, postproc {:?}",
                    command.file,
                    first + 1,
                    ours.lines().nth(first),
                    reference.lines().nth(first)
                ));
            }
        }
    }
    assert!(failed.is_empty(), "{failed:#?}");
    assert_eq!(compared, 34, "references compared");
    assert_eq!(unnamed, 10, "frame names taken out of -r references");
}

#[test]
fn call_rows_fold_their_lines_and_link_to_their_spans() {
    let trace = decode("c-threads-contexts");
    let reference = std::fs::read_to_string(
        fixtures().join("rtrace/c-threads-contexts/reference/postproc.txt"),
    )
    .expect("reference");
    let listing = Listing::new(&trace, &ListingOptions::default()).expect("a listing");
    let header = listing.header(&trace).len();
    let lines: Vec<&str> = reference.lines().skip(header).collect();
    assert_eq!(listing.len(), lines.len());
    let mut records = 0;
    for (row, line) in lines.iter().enumerate() {
        let info = listing.info(&trace, row);
        let is_call = line
            .split_once(". ")
            .is_some_and(|(n, _)| n.parse::<u32>().is_ok());
        if !is_call {
            let expected = if line.is_empty() {
                RowKind::Note
            } else {
                RowKind::Continuation
            };
            assert_eq!(info.kind, expected, "row {row}: {line}");
            continue;
        }
        records += 1;
        assert_eq!(info.kind, RowKind::Record, "row {row}: {line}");
        // The call folds up to the line before the blank line that ends it.
        let blank = lines[row..]
            .iter()
            .position(|l| l.is_empty())
            .expect("a blank line");
        let last = (blank > 1).then_some(row + blank - 1);
        assert_eq!(info.closed_by, last, "row {row}: {line}");
        // Its span is the call: its number is the span's start, and the
        // span's row is this row.
        let span = info.span.expect("a span");
        let thread = info.thread.expect("a thread");
        let ordinal: i64 = line
            .split('.')
            .next()
            .and_then(|n| n.parse().ok())
            .expect("N.");
        assert_eq!(info.time, Some(ordinal));
        assert_eq!(
            trace.threads[thread as usize].spans.start[span as usize],
            ordinal
        );
        assert_eq!(listing.row_of_span(&trace, thread, span), Some(row));
    }
    assert_eq!(records, 400, "every call of the trace is a record");
}

#[test]
fn damaged_traces_still_list_with_every_option() {
    let all = PostprocOptions {
        leaks: true,
        compress: true,
        sort: Some(PostprocSort::Count),
        context: Some(1),
        resources: Some(5),
        depth: Some(2),
        resolve: true,
        release: PostprocRelease::V2_0_1,
    };
    for case in cases_with_commands() {
        let files = read_folder(&fixtures().join("rtrace").join(&case));
        let (path, bytes) = files
            .iter()
            .find(|(p, _)| p.ends_with(".rtrace"))
            .expect("a trace");
        let mut random = common::Rng(bytes.len() as u64);
        for round in 0..24 {
            let mut damaged = bytes.clone();
            if round % 2 == 0 {
                damaged.truncate(random.below(bytes.len()));
            } else {
                for _ in 0..8 {
                    let at = random.below(damaged.len());
                    damaged[at] ^= (random.next() as u8) | 1;
                }
            }
            let Ok(trace) = decode_files(&[(path.clone(), damaged)]) else {
                continue;
            };
            let old_tool = PostprocOptions {
                release: PostprocRelease::V1_6,
                ..all.clone()
            };
            for options in [PostprocOptions::default(), all.clone(), old_tool] {
                let options = ListingOptions {
                    postproc: options,
                    ..ListingOptions::default()
                };
                let listing = Listing::new(&trace, &options).expect("a listing");
                let text = listing.text(&trace);
                assert!(text.starts_with("version="), "{case} round {round}");
                for row in 0..listing.len() {
                    let _ = listing.info(&trace, row);
                }
            }
        }
    }
}

#[test]
fn the_page_prints_the_same_listing_from_the_trace_it_receives() {
    let options = ListingOptions {
        postproc: PostprocOptions {
            leaks: true,
            compress: true,
            resolve: true,
            ..PostprocOptions::default()
        },
        ..ListingOptions::default()
    };
    for case in cases_with_commands() {
        let trace = decode(&case);
        let shipped = codec::decode(&codec::encode(&trace)).expect("the codec round trip");
        let here = Listing::new(&trace, &options).expect("a listing");
        let there = Listing::new(&shipped, &options).expect("a listing");
        assert_eq!(here.text(&trace), there.text(&shipped), "{case}");
    }
}
