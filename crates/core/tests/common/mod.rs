//! Helpers shared by the integration tests: loading fixture folders.
#![allow(dead_code)] // each test crate uses a different part of these helpers

use flamedrop_core::{decode_files, Trace};
use std::path::{Path, PathBuf};

/// The repository's `tests/fixtures` folder.
///
/// Read from the environment at run time, not with `env!`: a test binary
/// reused from a cache built in another checkout would otherwise look there.
pub fn fixtures() -> PathBuf {
    let manifest_dir = std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")));
    manifest_dir.join("../../tests/fixtures")
}

/// Every file below `dir`, as (path relative to `dir`'s parent, bytes).
pub fn read_folder(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let base = dir.parent().unwrap_or(dir).to_path_buf();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("fixture folder") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel = path
                    .strip_prefix(&base)
                    .expect("below base")
                    .to_string_lossy()
                    .into_owned();
                out.push((rel, std::fs::read(&path).expect("fixture file")));
            }
        }
    }
    out.sort();
    out
}

/// Decodes a fixture case's `uftrace.data`.
pub fn decode_case(group: &str, case: &str) -> Trace {
    let files = read_folder(&fixtures().join(group).join(case).join("uftrace.data"));
    checked(decode_files(&files).expect("decodes"))
}

/// `trace`, once [`Trace::check`] finds nothing wrong with it.
pub fn checked(trace: Trace) -> Trace {
    let problems = trace.check();
    assert!(
        problems.is_empty(),
        "the trace breaks the model: {problems:#?}"
    );
    trace
}

/// Case folder names of a fixture group.
pub fn cases(group: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(fixtures().join(group))
        .expect("group")
        .filter_map(|e| e.ok())
        .filter(|e| e.path().join("uftrace.data").is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The sp-rtrace cases (folders under `rtrace/` with a `reference/`), by name.
pub fn rtrace_cases() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(fixtures().join("rtrace"))
        .expect("rtrace fixtures")
        .filter_map(|e| e.ok())
        .filter(|e| e.path().join("reference").is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// An sp-rtrace case's `.rtrace` file: its name as `case/file` and its bytes.
pub fn rtrace_file(case: &str) -> (String, Vec<u8>) {
    let dir = fixtures().join("rtrace").join(case);
    let path = std::fs::read_dir(&dir)
        .expect("case folder")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "rtrace"))
        .expect("an .rtrace file");
    let name = path
        .file_name()
        .expect("name")
        .to_string_lossy()
        .into_owned();
    (
        format!("{case}/{name}"),
        std::fs::read(&path).expect("trace"),
    )
}

/// A reference file of a case, gunzipped when stored as `.gz`.
pub fn reference(group: &str, case: &str, name: &str) -> String {
    let dir = fixtures().join(group).join(case).join("reference");
    if let Ok(text) = std::fs::read_to_string(dir.join(name)) {
        return text;
    }
    let gz = std::fs::read(dir.join(format!("{name}.gz"))).expect("reference file");
    let mut text = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&gz[..]), &mut text)
        .expect("gunzip");
    text
}

/// A small deterministic generator (xorshift), so failures reproduce.
pub struct Rng(pub u64);

impl Rng {
    /// The next pseudo-random number.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Every fixture input as (group, case, path): each entry of a group folder
/// but notes, sources and references; a case's `uftrace.data` when it has one.
pub fn fixture_inputs() -> Vec<(String, String, PathBuf)> {
    let mut out = Vec::new();
    let mut groups: Vec<PathBuf> = std::fs::read_dir(fixtures())
        .expect("fixtures folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.is_dir())
        .collect();
    groups.sort();
    for group in groups {
        let group_name = group
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        let mut entries: Vec<PathBuf> = std::fs::read_dir(&group)
            .expect("group folder")
            .map(|e| e.expect("entry").path())
            .collect();
        entries.sort();
        for entry in entries {
            let case = entry
                .file_name()
                .expect("name")
                .to_string_lossy()
                .into_owned();
            let skip = ["README.md", "PROVENANCE.md", "reference", "elf"].contains(&case.as_str())
                || case.ends_with(".c");
            if skip {
                continue;
            }
            let data = entry.join("uftrace.data");
            let path = if data.is_dir() { data } else { entry };
            out.push((group_name.clone(), case, path));
        }
    }
    out
}

/// Decodes a fixture input of [`fixture_inputs`] (a folder or one file).
pub fn decode_input(path: &Path) -> Trace {
    let files = if path.is_dir() {
        read_folder(path)
    } else {
        let name = path
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        vec![(name, std::fs::read(path).expect("fixture file"))]
    };
    checked(decode_files(&files).expect("decodes"))
}
