//! Archives: a zip, a tar, a tar.gz and gzip-compressed single files of a
//! fixture folder decode to the same report as the folder; empty, damaged and
//! oversized archives give clear messages.

mod common;

use common::{fixtures, read_folder};
use flamedrop_core::analysis::report;
use flamedrop_core::archive::{self, Limits, MemorySink};
use flamedrop_core::model::Severity;
use flamedrop_core::{decode_files, LoadError};
use flate2::write::GzEncoder;
use flate2::Compression;
use std::io::{Read, Write};

fn folder(case: &str) -> Vec<(String, Vec<u8>)> {
    read_folder(&fixtures().join("uftrace").join(case).join("uftrace.data"))
}

fn archive(name: &str) -> (String, Vec<u8>) {
    let path = fixtures().join("archives").join(name);
    (
        name.to_owned(),
        std::fs::read(path).expect("archive fixture"),
    )
}

fn report_json(files: &[(String, Vec<u8>)]) -> String {
    let trace = decode_files(files).expect("decodes");
    serde_json::to_string(&report(&trace)).expect("report")
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
    encoder.write_all(data).expect("gzip");
    encoder.finish().expect("gzip")
}

fn gunzip(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(data)
        .read_to_end(&mut out)
        .expect("gunzip");
    out
}

#[test]
fn zip_tar_and_tar_gz_of_a_folder_decode_like_the_folder() {
    let expected = report_json(&folder("a-simple-nested"));
    let zip = archive("a-simple-nested.zip");
    let tgz = archive("a-simple-nested.tar.gz");
    let tar = ("a-simple-nested.tar".to_owned(), gunzip(&tgz.1));
    for files in [vec![zip], vec![tgz], vec![tar]] {
        let name = files[0].0.clone();
        let trace = decode_files(&files).expect("decodes");
        assert_eq!(
            serde_json::to_string(&report(&trace)).expect("report"),
            expected,
            "{name}: same report, diagnostics included"
        );
    }
    let expected = report_json(&folder("c-pthreads-mutex"));
    assert_eq!(
        report_json(&[archive("c-pthreads-mutex.tgz")]),
        expected,
        "pax tgz"
    );
}

#[test]
fn expanded_paths_keep_the_folder_inside_the_archive() {
    let (name, data) = archive("a-simple-nested.zip");
    let mut sink = MemorySink::default();
    let notes = archive::expand(
        &format!("drop/{name}"),
        &data,
        &Limits::default(),
        &mut sink,
    )
    .expect("expands");
    assert!(notes.is_empty());
    let paths: Vec<&str> = sink.files.iter().map(|(p, _)| p.as_str()).collect();
    assert!(paths.contains(&"drop/uftrace.data/info"), "{paths:?}");
    assert_eq!(sink.files.len(), folder("a-simple-nested").len());
}

#[test]
fn gzip_compressed_single_files_are_expanded_among_plain_ones() {
    let plain = folder("a-simple-nested");
    let expected = report_json(&plain);
    let mixed: Vec<(String, Vec<u8>)> = plain
        .into_iter()
        .map(|(path, data)| {
            if path.ends_with(".dat") || path.ends_with("/info") {
                (format!("{path}.gz"), gzip(&data))
            } else {
                (path, data)
            }
        })
        .collect();
    assert_eq!(report_json(&mixed), expected);
}

#[test]
fn an_empty_archive_says_so() {
    let empty_zip = b"PK\x05\x06\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0".to_vec();
    let empty_tar = vec![0u8; 1024];
    for (name, data) in [("empty.zip", empty_zip), ("empty.tar", empty_tar)] {
        let err = decode_files(&[(name.to_owned(), data)]).expect_err("nothing to decode");
        let text = err.to_string();
        assert!(
            text.contains(name) && text.contains("holds no files"),
            "{text}"
        );
    }
}

#[test]
fn a_zip_bomb_stops_at_the_limit_with_a_clear_message() {
    // 64 MiB of zeros deflate to about 64 KiB.
    let zeros = vec![0u8; 64 << 20];
    let bomb = ("bomb.gz".to_owned(), gzip(&zeros));
    let limits = Limits {
        max_total_bytes: 16 << 20,
        max_entries: 10,
    };
    let err = archive::expand_in_memory(vec![bomb], &limits).expect_err("over the limit");
    assert!(
        err.to_string().contains("expands to more than 16 MiB"),
        "{err}"
    );
}

#[test]
fn too_many_entries_stop_with_a_clear_message() {
    let (name, data) = archive("a-simple-nested.zip");
    let limits = Limits {
        max_total_bytes: u64::MAX,
        max_entries: 3,
    };
    let err = archive::expand_in_memory(vec![(name, data)], &limits).expect_err("too many");
    assert!(err.to_string().contains("more than 3 files"), "{err}");
}

#[test]
fn a_cut_archive_keeps_what_it_holds_and_reports_the_loss() {
    let (_, data) = archive("a-simple-nested.zip");
    let (name, tgz) = archive("a-simple-nested.tar.gz");
    let tar = gunzip(&tgz);
    for (name, cut) in [
        ("cut.zip", data[..data.len() * 2 / 3].to_vec()),
        ("cut.tar", tar[..tar.len() / 2].to_vec()),
        (name.as_str(), tgz[..tgz.len() / 2].to_vec()),
    ] {
        let (files, notes) =
            archive::expand_in_memory(vec![(name.to_owned(), cut)], &Limits::default())
                .expect("partial expansion");
        assert!(!files.is_empty(), "{name}: some files survive");
        assert!(
            notes.iter().any(|d| d.severity == Severity::DataLoss),
            "{name}: the loss is reported: {notes:?}"
        );
    }
}

#[test]
fn garbage_with_an_archive_magic_is_an_error_not_a_panic() {
    for (name, data) in [
        ("x.gz", b"\x1f\x8b\x08garbage-garbage".to_vec()),
        ("x.zip", b"PK\x03\x04\xff\xff\xff\xff".to_vec()),
    ] {
        match decode_files(&[(name.to_owned(), data)]) {
            Err(LoadError::Archive(_)) | Err(LoadError::UnknownFormat { .. }) => {}
            other => panic!("{name}: {other:?}"),
        }
    }
}
