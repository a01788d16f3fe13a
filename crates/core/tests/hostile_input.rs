//! Damaged input: truncation at random offsets, bit flips, odd chunking and
//! files that are not traces. The decoder must never panic, must keep what it
//! can read, and must say what it lost.

mod common;

use common::{cases, fixtures, read_folder, Rng};
use flamedrop_core::analysis::report;
use flamedrop_core::input::decode_files_chunked;
use flamedrop_core::{decode_files, LoadError};

fn case_files(case: &str) -> Vec<(String, Vec<u8>)> {
    read_folder(&fixtures().join("uftrace").join(case).join("uftrace.data"))
}

fn is_task_data(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.ends_with(".dat")
        && name
            .trim_end_matches(".dat")
            .bytes()
            .all(|b| b.is_ascii_digit())
}

#[test]
fn every_task_file_truncated_at_100_random_offsets_decodes_and_reports_the_loss() {
    let mut rng = Rng(0x5eed);
    for case in cases("uftrace") {
        let files = case_files(&case);
        for (index, (path, data)) in files
            .iter()
            .enumerate()
            .filter(|(_, (p, _))| is_task_data(p))
        {
            for _ in 0..100 {
                let cut = rng.below(data.len());
                let mut damaged = files.clone();
                damaged[index].1.truncate(cut);
                let trace = decode_files(&damaged).expect("still a uftrace recording");
                let r = report(&trace);
                let kinds: Vec<&str> = trace.diagnostics.iter().map(|d| d.kind.as_str()).collect();
                let said = kinds
                    .iter()
                    .any(|k| matches!(*k, "truncated-record" | "unreadable-bytes" | "open-at-end"));
                // A cut between whole records, with every call returned, looks
                // like a complete file: nothing in the data says anything is missing.
                let clean_cut = cut.is_multiple_of(8) && !kinds.contains(&"truncated-record");
                assert!(
                    said || clean_cut,
                    "{path} cut at {cut}: no diagnostic says data was lost ({kinds:?})"
                );
                let has_arguments = case.starts_with("f-args");
                if !cut.is_multiple_of(16) && !has_arguments && !kinds.contains(&"unreadable-bytes")
                {
                    let d = trace
                        .diagnostics
                        .iter()
                        .find(|d| d.kind == "truncated-record")
                        .expect("truncation reported");
                    assert_eq!(d.count, 1, "{path} cut at {cut}");
                    assert!(
                        d.text().contains(path.as_str()),
                        "the message names the file"
                    );
                }
                assert!(r.diagnostics.iter().all(|d| !d.message.is_empty()));
            }
        }
    }
}

#[test]
fn every_file_of_a_case_survives_truncation_and_bit_flips() {
    let mut rng = Rng(42);
    for case in ["a-simple-nested", "f-args-auto-dwarf", "e-dlopen-plugin"] {
        let files = case_files(case);
        for index in 0..files.len() {
            for _ in 0..20 {
                let mut damaged = files.clone();
                let data = &mut damaged[index].1;
                if data.is_empty() {
                    continue;
                }
                if rng.below(2) == 0 {
                    let cut = rng.below(data.len());
                    data.truncate(cut);
                } else {
                    for _ in 0..1 + rng.below(8) {
                        let at = rng.below(data.len());
                        data[at] ^= 1 << rng.below(8);
                    }
                }
                // Whatever it says, it must not panic.
                if let Ok(trace) = decode_files(&damaged) {
                    let _ = report(&trace);
                }
            }
        }
    }
}

#[test]
fn chunk_size_does_not_change_the_result() {
    for case in ["f-args-explicit", "c-pthreads-mutex"] {
        let files = case_files(case);
        let whole = report(&decode_files(&files).expect("decodes"));
        for chunk in [1, 3, 16, 17, 4096] {
            let chunked = report(&decode_files_chunked(&files, chunk).expect("decodes"));
            assert_eq!(chunked, whole, "{case} in chunks of {chunk}");
        }
    }
}

#[test]
fn files_that_are_not_traces_get_a_clear_refusal() {
    let png = vec![(
        "photo.png".to_string(),
        b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec(),
    )];
    let err = decode_files(&png).unwrap_err();
    assert!(matches!(err, LoadError::UnknownFormat { .. }));
    assert!(err.to_string().contains("photo.png"));
    let empty = vec![("17763.dat".to_string(), Vec::new())];
    assert!(decode_files(&empty).is_err());
    assert_eq!(decode_files(&[]).unwrap_err(), LoadError::NoFiles);
}

#[test]
fn an_info_file_alone_or_with_an_empty_dat_decodes_to_an_empty_trace_with_diagnostics() {
    let files = case_files("a-simple-nested");
    let info: Vec<_> = files
        .iter()
        .filter(|(p, _)| p.ends_with("/info"))
        .cloned()
        .collect();
    let trace = decode_files(&info).expect("info is enough to recognise uftrace");
    assert!(trace.diagnostics.iter().any(|d| d.kind == "no-task-txt"));
    let mut with_empty = files.clone();
    for (path, data) in with_empty.iter_mut() {
        if is_task_data(path) {
            data.clear();
        }
    }
    let trace = decode_files(&with_empty).expect("decodes");
    assert!(trace.threads.iter().all(|t| t.spans.is_empty()));
}

#[test]
fn garbage_in_the_middle_of_a_task_file_is_skipped_to_the_next_record() {
    let mut files = case_files("a-simple-nested");
    let (_, data) = files
        .iter_mut()
        .find(|(p, _)| is_task_data(p))
        .expect("a .dat");
    for b in &mut data[160..192] {
        *b = 0xee;
    }
    let trace = decode_files(&files).expect("decodes");
    let skipped = trace
        .diagnostics
        .iter()
        .find(|d| d.kind == "unreadable-bytes")
        .expect("skip reported");
    assert_eq!(skipped.offset, Some(160));
    assert_eq!(skipped.count, 32);
    assert!(
        trace.threads[0].spans.len() >= 19,
        "the records after the garbage are kept"
    );
}
