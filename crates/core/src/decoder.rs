//! The contract between the driver and the decoders: the files offered
//! ([`FileProbe`]), the streaming [`Decoder`] protocol every format implements,
//! and why a load can fail ([`LoadError`]).
//!
//! This module sits at the bottom: it knows no format and no driver, so every
//! decoder can depend on it without depending on the others.

use crate::model::{Format, PreviewCursor, PreviewLimits, Trace, TraceBuilder};
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
    /// Whether a second worker decoding part of this input in the page is
    /// worth starting: false where every part still reads and walks the
    /// whole input (SELogger's split by threads), which on the two cores
    /// of the machines we measure on took longer than one part alone.
    /// [`Decoder::keep_part`] still splits such an input when asked.
    fn parts_pay_off(&self) -> bool {
        true
    }
    /// Restricts the decoder to a time window and / or a set of threads
    /// ([`Selection`]), applied while decoding so that nothing outside is
    /// kept. Returns false, changing nothing, when this format cannot.
    fn keep_only(&mut self, _selection: &Selection) -> bool {
        false
    }
    /// Where this part begins reading file `index` (a byte offset): 0
    /// unless [`Decoder::keep_part`] gave it a stretch of one file.
    fn start_of(&self, _index: usize) -> u64 {
        0
    }
    /// True once this part has read all it needs of the current file: the
    /// caller may stop feeding it and call [`Decoder::end_file`].
    fn has_enough(&self) -> bool {
        false
    }
    /// True when this decoder's parts are not merged as traces but joined
    /// by part 0 before it builds the trace: every other part's
    /// [`Decoder::hand_over`] goes, in part order, to part 0's
    /// [`Decoder::take_over`], then part 0 finishes.
    fn joins_parts(&self) -> bool {
        false
    }
    /// What a part other than 0 of a joining decoder hands to part 0.
    fn hand_over(self: Box<Self>) -> PartHandOver {
        Box::new(())
    }
    /// Part 0 takes in the next part's hand-over. An error means the parts
    /// do not join exactly: the input must then be decoded whole.
    fn take_over(&mut self, _next: PartHandOver) -> Result<(), String> {
        Err("this decoder does not join parts".into())
    }
    /// The trace as built so far, for a picture drawn before decoding ends
    /// ([`TraceBuilder::preview`]); `None` before the builder exists or for
    /// a decoder that builds everything at the end.
    fn building(&self) -> Option<&TraceBuilder> {
        None
    }
    /// A picture of what was decoded so far, reduced to `limits`, for the
    /// timeline to draw before decoding ends; `cursor` (the same one for
    /// every picture of this decode) remembers what earlier pictures looked
    /// at. By default the builder's ([`Decoder::building`]) preview; a
    /// decoder that builds its spans only at the end makes it from what it
    /// collected (sp-rtrace). `None`: no picture now.
    fn preview(&self, cursor: &mut PreviewCursor, limits: &PreviewLimits) -> Option<Trace> {
        self.building().map(|b| b.preview(cursor, limits))
    }
}

/// The part of a trace to decode when the whole would not fit: a time
/// window and / or a set of threads. The default keeps everything.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Selection {
    /// Keep only records at times in `from..=until`, in the trace's unit.
    pub window: Option<(i64, i64)>,
    /// Keep only these threads (their `Thread::id`: a uftrace tid).
    pub threads: Option<Vec<String>>,
}

impl Selection {
    /// True when nothing is left out.
    pub fn keeps_everything(&self) -> bool {
        self.window.is_none() && self.threads.is_none()
    }

    /// True when a record at `time` is kept.
    pub fn keeps_time(&self, time: i64) -> bool {
        self.window
            .is_none_or(|(from, until)| from <= time && time <= until)
    }

    /// True when thread `id` is kept.
    pub fn keeps_thread(&self, id: &str) -> bool {
        self.threads
            .as_ref()
            .is_none_or(|ids| ids.iter().any(|t| t == id))
    }

    /// What was kept, for the summary ("threads 12, 13 of 3; time 5.1~6.2"),
    /// with times written by `time`.
    pub fn describe(&self, all_threads: usize, time: impl Fn(i64) -> String) -> String {
        let mut parts = Vec::new();
        if let Some(ids) = &self.threads {
            parts.push(format!(
                "{} of {all_threads} threads ({})",
                ids.len(),
                ids.join(", ")
            ));
        }
        if let Some((from, until)) = self.window {
            parts.push(format!("time window {}~{}", time(from), time(until)));
        }
        parts.join("; ")
    }
}

/// What one part of a joining decoder hands to part 0 (see
/// [`Decoder::joins_parts`]); only that decoder knows what is inside.
pub type PartHandOver = Box<dyn std::any::Any + Send>;

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
