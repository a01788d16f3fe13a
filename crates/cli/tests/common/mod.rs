//! Running the built `flamedrop` binary from the tests, and the fixtures
//! they read.

#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Command;

/// What one run printed and how it ended.
pub struct Run {
    pub stdout: String,
    pub stderr: String,
    pub code: i32,
}

/// Runs `flamedrop ARGS` and waits for it.
pub fn flamedrop(args: &[&str]) -> Run {
    let output = Command::new(env!("CARGO_BIN_EXE_flamedrop"))
        .args(args)
        .output()
        .expect("the flamedrop binary runs");
    Run {
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        code: output.status.code().unwrap_or(-1),
    }
}

/// A path under the repository's `tests/fixtures/`, as a string.
pub fn fixture(relative: &str) -> String {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "..", "..", "tests", "fixtures"]
        .iter()
        .collect::<PathBuf>()
        .join(relative);
    path.to_string_lossy().into_owned()
}

/// The uftrace case with several tasks and locks used by most tests.
pub fn pthreads() -> String {
    fixture("uftrace/c-pthreads-mutex/uftrace.data")
}
