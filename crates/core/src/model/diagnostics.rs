//! Diagnostics: what a decoder repaired, skipped or lost, with counts and the
//! first place it happened. They travel with the trace and show in the UI.

use serde::{Deserialize, Serialize};

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// Something was repaired or is worth knowing; nothing was lost.
    Info,
    /// Records were lost or could not be read; the rest is shown.
    DataLoss,
    /// A file could not be used at all.
    Error,
}

impl Severity {
    /// The name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::DataLoss => "data_loss",
            Severity::Error => "error",
        }
    }
}

/// One kind of problem, counted. Problems of the same kind in the same file
/// are folded into one diagnostic that keeps the first byte offset.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    pub severity: Severity,
    /// A stable short key (`unmatched-exit`, `truncated-record`, …) used to
    /// fold repeats together.
    pub kind: String,
    /// What happened, without file or count.
    pub message: String,
    /// The input file it happened in, as given to the decoder.
    pub file: Option<String>,
    /// Byte offset of the first occurrence in `file`.
    pub offset: Option<u64>,
    /// How many times it happened (records, lines, files…, as the message says).
    pub count: u64,
}

impl Diagnostic {
    /// The full sentence shown to people: file and first offset, then the message.
    pub fn text(&self) -> String {
        match (&self.file, self.offset) {
            (Some(file), Some(offset)) => {
                format!("{file} (first at byte {offset}): {}", self.message)
            }
            (Some(file), None) => format!("{file}: {}", self.message),
            _ => self.message.clone(),
        }
    }
}
