//! Inputs shared by the benches: the repository's small fixtures, big traces
//! named by environment variables, and one routine that feeds any decoder the
//! way the browser worker does (planned files, 16 MiB chunks).
#![allow(dead_code)] // each bench binary uses a different part of these helpers

use criterion::{BatchSize, BenchmarkId, Criterion, Throughput};
use flamedrop_core::input::{decode_files_chunked, open_decoder, FileProbe, PROBE_BYTES};
use flamedrop_core::Trace;
use std::hint::black_box;
use std::path::{Path, PathBuf};

/// The chunk size the viewer's worker reads with (`src/worker/mod.rs`).
pub const WORKER_CHUNK: usize = 16 << 20;

/// A named set of files: (path as the decoder sees it, bytes).
pub struct Input {
    pub name: String,
    pub files: Vec<(String, Vec<u8>)>,
}

impl Input {
    /// Bytes the decoder will read (the files its plan lists).
    pub fn planned_bytes(&self) -> u64 {
        let Ok(decoder) = open_decoder(self.probes()) else {
            return 0;
        };
        decoder
            .plan()
            .iter()
            .filter_map(|&i| self.files.get(i))
            .map(|(_, b)| b.len() as u64)
            .sum()
    }

    fn probes(&self) -> Vec<FileProbe> {
        self.files
            .iter()
            .map(|(path, bytes)| FileProbe {
                path: path.clone(),
                size: bytes.len() as u64,
                head: bytes[..bytes.len().min(PROBE_BYTES)].to_vec(),
            })
            .collect()
    }

    /// Decodes the input as the worker does.
    pub fn decode(&self) -> Trace {
        decode_files_chunked(&self.files, WORKER_CHUNK).expect("the bench input decodes")
    }
}

/// The repository's `tests/fixtures` folder.
pub fn fixtures() -> PathBuf {
    let manifest_dir = std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")));
    manifest_dir.join("../../tests/fixtures")
}

/// A fixture file or folder below `tests/fixtures`, e.g. `uftrace/b-recursion-hot/uftrace.data`.
pub fn fixture(relative: &str) -> Input {
    let path = fixtures().join(relative);
    read(&path, relative.split('/').nth(1).unwrap_or(relative))
}

/// The trace (file or folder) named by environment variable `var`, if set:
/// how big traces that cannot live in the repository are benchmarked.
pub fn from_env(var: &str) -> Option<Input> {
    let path = PathBuf::from(std::env::var_os(var)?);
    let name = format!(
        "{var}={}",
        path.parent().and_then(Path::file_name).map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned()
        )
    );
    Some(read(&path, &name))
}

/// Reads a file, or every file below a folder (paths relative to the folder's
/// parent, as a dropped folder has them).
fn read(path: &Path, name: &str) -> Input {
    let mut files = Vec::new();
    if path.is_dir() {
        let base = path.parent().unwrap_or(path).to_path_buf();
        let mut todo = vec![path.to_path_buf()];
        while let Some(dir) = todo.pop() {
            for entry in std::fs::read_dir(&dir).expect("bench input folder") {
                let p = entry.expect("folder entry").path();
                if p.is_dir() {
                    todo.push(p);
                } else {
                    let rel = p
                        .strip_prefix(&base)
                        .unwrap_or(&p)
                        .to_string_lossy()
                        .replace('\\', "/");
                    files.push((rel, std::fs::read(&p).expect("bench input file")));
                }
            }
        }
        files.sort();
    } else {
        let file_name = path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        files.push((file_name, std::fs::read(path).expect("bench input file")));
    }
    Input {
        name: name.to_owned(),
        files,
    }
}

/// Benchmarks decoding each input, reporting throughput in planned bytes.
/// Big inputs (over 32 MiB) take 10 samples so a run stays within minutes.
pub fn bench_decode(c: &mut Criterion, format: &str, inputs: &[Input]) {
    let mut group = c.benchmark_group(format!("decode/{format}"));
    for input in inputs {
        let bytes = input.planned_bytes();
        group.throughput(Throughput::Bytes(bytes));
        group.sample_size(if bytes > 32 << 20 { 10 } else { 50 });
        group.bench_with_input(
            BenchmarkId::from_parameter(&input.name),
            input,
            |b, input| {
                b.iter_batched(
                    || (),
                    |()| black_box(input.decode()),
                    BatchSize::PerIteration,
                )
            },
        );
    }
    group.finish();
}
