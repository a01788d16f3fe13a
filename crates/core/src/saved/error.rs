//! Why a `.flamedrop` file could not be read, as sentences for people.

use std::fmt;

/// What is wrong with a `.flamedrop` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SavedError {
    /// The bytes do not start with the magic.
    NotSaved,
    /// The file ends at byte `at`, in the middle of `reading`.
    Truncated { at: u64, reading: &'static str },
    /// Written by a newer flamedrop, in a format version this one does not read.
    Newer { version: u16, reads_up_to: u16 },
    /// The parts are there but do not read (the sentence says which).
    Damaged(String),
}

impl fmt::Display for SavedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SavedError::NotSaved => write!(f, "not a flamedrop file"),
            SavedError::Truncated { at, reading } => write!(
                f,
                "the flamedrop file is truncated at byte {at} (while reading {reading})"
            ),
            SavedError::Newer {
                version,
                reads_up_to,
            } => write!(
                f,
                "the flamedrop file was made by a newer flamedrop (version {version}); \
                 this one reads up to {reads_up_to}"
            ),
            SavedError::Damaged(what) => write!(f, "the flamedrop file is damaged: {what}"),
        }
    }
}

impl std::error::Error for SavedError {}
