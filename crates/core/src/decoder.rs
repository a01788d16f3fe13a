//! The contract between the driver and the decoders: the files offered
//! ([`FileProbe`]), the streaming [`Decoder`] protocol every format implements,
//! and why a load can fail ([`LoadError`]).
//!
//! This module sits at the bottom: it knows no format and no driver, so every
//! decoder can depend on it without depending on the others.

use crate::model::{Format, Trace, TraceBuilder};
use std::fmt;

/// Bytes of a file's start that detection looks at.
pub const PROBE_BYTES: usize = 64;

/// A file offered to flamedrop: its path relative to what was dropped (or just
/// its name), its size, and its first bytes.
#[derive(Clone, Debug)]
pub struct FileProbe {
    pub path: String,
    pub size: u64,
    pub head: Vec<u8>,
}

impl FileProbe {
    /// The last path component.
    pub fn name(&self) -> &str {
        file_name(&self.path)
    }

    /// The path without its last component (`""` for a bare name).
    pub fn dir(&self) -> &str {
        let name = self.name();
        self.path
            .strip_suffix(name)
            .unwrap_or_default()
            .trim_end_matches('/')
    }
}

/// The last component of a `/`- or `\`-separated path.
pub fn file_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// Why nothing could be decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// Nothing was offered.
    NoFiles,
    /// None of the files looks like a trace flamedrop reads; `expected`
    /// names the formats it does read (from the registry).
    UnknownFormat {
        files: Vec<String>,
        expected: String,
    },
    /// The files are a known tool's output in a version flamedrop cannot show.
    Unsupported { format: Format, reason: String },
    /// An archive could not be expanded (damaged, too big, empty).
    Archive(String),
    /// Parts decoded side by side did not fit together (a bug, reported as such).
    Split(String),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::NoFiles => write!(f, "no files were given"),
            LoadError::Archive(message) | LoadError::Split(message) => write!(f, "{message}"),
            LoadError::UnknownFormat { files, expected } => {
                let shown: Vec<&str> = files.iter().take(5).map(String::as_str).collect();
                let more = files.len().saturating_sub(shown.len());
                write!(
                    f,
                    "not a trace flamedrop can read: {}{} (expected {expected})",
                    shown.join(", "),
                    if more > 0 {
                        format!(" and {more} more")
                    } else {
                        String::new()
                    }
                )
            }
            LoadError::Unsupported { format, reason } => {
                write!(f, "{} output that cannot be shown: {reason}", format.name())
            }
        }
    }
}

impl std::error::Error for LoadError {}

/// A decoder that is fed planned files in chunks and then hands over a trace.
pub trait Decoder {
    /// The format being decoded.
    fn format(&self) -> Format;
    /// Indices (into the probes it was opened with) of the files to read, in
    /// the order they must be fed. Files not listed are not needed.
    fn plan(&self) -> Vec<usize>;
    /// Starts feeding file `index`.
    fn begin_file(&mut self, index: usize);
    /// The next bytes of the current file.
    fn feed(&mut self, chunk: &[u8]);
    /// The current file is complete.
    fn end_file(&mut self);
    /// All planned files were fed (or the caller stopped early): the trace.
    fn finish(self: Box<Self>) -> Trace;
    /// Restricts the decoder to part `part` (from 0) of `parts` of the input,
    /// so that several workers can each decode a part at once; the parts are
    /// put back together with [`crate::model::merge::merge_part`]. Part 0
    /// keeps what is said once for the whole input (metadata, diagnostics of
    /// the shared files). Returns false, changing nothing, when this format
    /// or this input cannot be split that way (then part 0 decodes it all).
    fn keep_part(&mut self, _part: usize, _parts: usize) -> bool {
        false
    }
    /// The trace as built so far, for a picture drawn before decoding ends
    /// ([`TraceBuilder::preview`]); `None` before the builder exists or for
    /// a decoder that builds everything at the end.
    fn building(&self) -> Option<&TraceBuilder> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_split_into_dir_and_name() {
        let p = FileProbe {
            path: "case/uftrace.data/info".into(),
            size: 0,
            head: vec![],
        };
        assert_eq!(p.name(), "info");
        assert_eq!(p.dir(), "case/uftrace.data");
        assert_eq!(file_name("info"), "info");
        assert_eq!(file_name("a\\b.txt"), "b.txt");
    }
}
