//! Times the steps a big trace goes through on its way to the page, natively:
//! decoding (fed in the worker's 16 MiB chunks), `codec::encode` and
//! `codec::decode`, and says how big the encoded trace and its detail fields
//! (their columns' bytes) are.
//! `cargo run --release -p flamedrop-core --example decode-timing -- PATH...`
//! (a file or a folder; several paths are timed one after the other).
//! `FLAMEDROP_PARTS=N` decodes in N parts on threads, as N page workers do,
//! and merges them (inputs that cannot be split decode whole).

use flamedrop_core::input::{
    decode_files_chunked, decode_files_in_parts_chunked, parts_decoded_whole_after_all,
};
use flamedrop_core::model::codec;
use std::path::{Path, PathBuf};
use std::time::Instant;

fn main() {
    let paths: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    if paths.is_empty() {
        eprintln!("usage: decode-timing PATH...");
        std::process::exit(2);
    }
    let parts: usize = std::env::var("FLAMEDROP_PARTS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1);
    for path in paths {
        let files = read(&path);
        let bytes: usize = files.iter().map(|(_, b)| b.len()).sum();
        let mb = bytes as f64 / 1e6;
        let clock = Instant::now();
        let decoded = if parts > 1 {
            decode_files_in_parts_chunked(&files, parts, 16 << 20)
        } else {
            decode_files_chunked(&files, 16 << 20)
        };
        let trace = match decoded {
            Ok(trace) => trace,
            Err(e) => {
                eprintln!("{}: {e}", path.display());
                continue;
            }
        };
        let decode_s = clock.elapsed().as_secs_f64();
        if parts > 1 && parts_decoded_whole_after_all() > 0 {
            println!("  (the parts did not join: decoded whole after all)");
        }
        let clock = Instant::now();
        let encoded = codec::encode(&trace);
        let encode_s = clock.elapsed().as_secs_f64();
        let clock = Instant::now();
        let back = codec::decode(&encoded);
        let back_s = clock.elapsed().as_secs_f64();
        let spans: usize = trace.threads.iter().map(|t| t.spans.len()).sum();
        let fields: usize = trace
            .threads
            .iter()
            .map(|t| t.spans.detail_count() + t.instants.detail_count())
            .sum();
        let detail_bytes: usize = trace
            .threads
            .iter()
            .map(|t| t.spans.details.column_bytes() + t.instants.details.column_bytes())
            .sum();
        let groups: usize = trace
            .threads
            .iter()
            .map(|t| t.spans.details.groups() + t.instants.details.groups())
            .sum();
        println!(
            "{}: {mb:.1} MB, {spans} spans, {fields} detail fields in {groups} groups ({:.1} MB, {:.1} bytes a field), {} strings",
            path.display(),
            detail_bytes as f64 / 1e6,
            detail_bytes as f64 / fields.max(1) as f64,
            trace.strings.len()
        );
        println!(
            "  decode {:.0} ms ({:.0} MB/s) · codec encode {:.0} ms ({:.1} MB) · codec decode {:.0} ms ({})",
            decode_s * 1e3,
            mb / decode_s,
            encode_s * 1e3,
            encoded.len() as f64 / 1e6,
            back_s * 1e3,
            if back.is_some() { "ok" } else { "FAILED" }
        );
        if std::env::var_os("FLAMEDROP_COLUMNS").is_some() {
            print_column_bytes(&trace);
        }
    }
}

/// The model's bytes by column name, biggest first.
fn print_column_bytes(trace: &flamedrop_core::model::Trace) {
    use flamedrop_core::model::columns::{ColumnInfo, ColumnRef};
    let mut sizes: std::collections::BTreeMap<&str, usize> = Default::default();
    trace.visit_columns(&mut |info: ColumnInfo, c: ColumnRef| {
        let bytes = match c {
            ColumnRef::I64(v) => v.len() * 8,
            ColumnRef::U64(v) => v.len() * 8,
            ColumnRef::U32(v) => v.len() * 4,
            ColumnRef::U16(v) => v.len() * 2,
            ColumnRef::U8(v) => v.len(),
            ColumnRef::F64(v) => v.len() * 8,
            ColumnRef::I64Columns(v) => v.iter().map(|c| c.len() * 8).sum(),
            ColumnRef::Strings(v) => v.iter().map(|s| s.len() + 24).sum(),
            ColumnRef::Rows(v) => v.iter().flatten().map(|s| s.len() + 24).sum(),
        };
        *sizes.entry(info.name).or_default() += bytes;
    });
    let mut sizes: Vec<_> = sizes.into_iter().collect();
    sizes.sort_by_key(|(_, b)| std::cmp::Reverse(*b));
    let total: usize = sizes.iter().map(|(_, b)| b).sum();
    println!("  columns: {:.1} MB", total as f64 / 1e6);
    for (name, bytes) in sizes.iter().filter(|(_, b)| *b > 100_000) {
        println!("    {name:<20} {:>7.1} MB", *bytes as f64 / 1e6);
    }
}

/// A file, or every file below a folder (paths relative to the folder's parent).
fn read(path: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    let base = path.parent().unwrap_or(path).to_path_buf();
    let mut todo = vec![path.to_path_buf()];
    while let Some(p) = todo.pop() {
        if p.is_dir() {
            for entry in std::fs::read_dir(&p).into_iter().flatten().flatten() {
                todo.push(entry.path());
            }
        } else if let Ok(bytes) = std::fs::read(&p) {
            let rel = p.strip_prefix(&base).unwrap_or(&p);
            files.push((rel.to_string_lossy().replace('\\', "/"), bytes));
        }
    }
    files.sort();
    files
}
