//! Golden tests of sp-rtrace's listing: for every shared sp-rtrace fixture,
//! the listing with the options of each `reference/postproc*.txt` (read from
//! the case's `COMMANDS.txt`) equals what `sp-rtrace-postproc` printed, byte
//! for byte.
//!
//! Not compared (each is listed in [`unsupported`] with its reason):
//! - `-r` (`postproc-r.txt`, `postproc-lcr.txt`): the names come from
//!   `sp-rtrace-resolve` reading the recording machine's libraries (libc's
//!   `.dynsym` at a wrong offset), which are not part of the data;
//! - the references of the 1.6 post-processor (`postproc-v1.6*.txt`): another
//!   tool's header, heap labels and block bounds.
//!
//! Normalized (only that): the 64-bit post-processor reads the 48-byte HINF
//! packet of the 2.0 writer as two pointers and ten dwords, so its last two
//! heap values (`total free space`, `space ideally releasable via
//! malloc_trim`) are bytes past the packet in its read buffer — not in the
//! trace. c-leaks is the only such fixture; the listing prints 0 there and
//! the test sets the reference's two values to 0.

mod common;

use common::{fixtures, read_folder};
use flamedrop_core::analysis::listing::{
    parse_hex_mask, Listing, ListingOptions, PostprocOptions, PostprocSort,
};
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

/// The case's folder decoded as the CLI opens it (the trace, and any ELF
/// file beside it).
fn decode(case: &str) -> Trace {
    let files = read_folder(&fixtures().join("rtrace").join(case));
    common::checked(decode_files(&files).expect("decodes"))
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

/// Why a reference is not compared, if it is not.
fn unsupported(command: &Command) -> Option<&'static str> {
    if command.build.starts_with("sp-rtrace 1.6") {
        return Some("made by the 1.6 post-processor");
    }
    if command.options.iter().any(|o| o == "-r") {
        return Some("-r names frames with the recording machine's libraries");
    }
    None
}

fn options(words: &[String]) -> PostprocOptions {
    let mut options = PostprocOptions::default();
    let mut words = words.iter();
    while let Some(word) = words.next() {
        let mut value = || words.next().expect("option value").clone();
        match word.as_str() {
            "-l" => options.leaks = true,
            "-c" => options.compress = true,
            "-s" => options.sort = Some(PostprocSort::parse(&value()).expect("sort")),
            "-C" => options.context = Some(parse_hex_mask(&value()).expect("mask")),
            "-R" => options.resources = Some(parse_hex_mask(&value()).expect("mask")),
            "-b" => options.depth = Some(value().parse().expect("depth")),
            other => panic!("option {other} not mapped"),
        }
    }
    options
}

/// The reference with the two heap values that come from past the HINF
/// packet set to 0 (see the module doc), for a 64-bit trace whose HINF holds
/// twelve dwords.
fn normalized(reference: &str, trace: &Trace) -> String {
    let mis_read = trace
        .metadata
        .iter()
        .any(|(k, v)| k == "architecture" && v.contains("8-byte"))
        && trace
            .tables
            .iter()
            .any(|t| t.id == "heap-info" && t.note.contains("(HINF, 48 bytes"));
    if !mis_read {
        return reference.to_owned();
    }
    let past_the_packet = [
        "##   total free space ",
        "##   space ideally releasable via malloc_trim ",
    ];
    reference
        .split_inclusive('\n')
        .map(
            |line| match past_the_packet.iter().find(|p| line.starts_with(*p)) {
                Some(prefix) => format!("{prefix}0\n"),
                None => line.to_owned(),
            },
        )
        .collect()
}

#[test]
fn every_supported_postproc_reference_is_printed_byte_for_byte() {
    let (mut compared, mut skipped, mut failed) = (0, Vec::new(), Vec::new());
    for case in cases_with_commands() {
        let trace = decode(&case);
        for command in commands(&case) {
            if let Some(why) = unsupported(&command) {
                skipped.push(format!("{case}/{}: {why}", command.file));
                continue;
            }
            let path = fixtures()
                .join("rtrace")
                .join(&case)
                .join("reference")
                .join(&command.file);
            let Ok(reference) = std::fs::read_to_string(&path) else {
                continue;
            };
            let listing_options = ListingOptions {
                postproc: options(&command.options),
                ..ListingOptions::default()
            };
            let listing = Listing::new(&trace, &listing_options).expect("a listing");
            let ours = listing.text(&trace);
            compared += 1;
            if ours != normalized(&reference, &trace) {
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
    eprintln!("compared {compared}; not compared: {skipped:#?}");
    assert!(failed.is_empty(), "{failed:#?}");
    assert_eq!(compared, 28, "references compared");
    assert_eq!(skipped.len(), 6, "references not compared");
}
