//! One module per input format, and the registry that knows them all.
//!
//! Each format folder turns raw files into builder calls behind the
//! [`Decoder`] contract. [`FORMATS`] is the one list of formats: detection,
//! opening a decoder and the formats named when nothing matches all read it,
//! so adding a format is its folder plus one row here (and its [`Format`]
//! variant; ARCHITECTURE.md, "How to add a format", walks through it).
//!
//! Decoders read untrusted bytes, so indexing that could panic is denied
//! here for every format (with `unwrap`/`expect`, denied crate-wide in
//! `lib.rs`): a decoder reads through `get`, iterators or the kit's
//! `ByteCursor` and reports what it could not read.

#![deny(clippy::indexing_slicing)]

pub mod common;
#[cfg(feature = "example-format")]
pub mod example;
pub mod rtrace;
pub mod scaler;
pub mod selogger;
pub mod swap;
pub mod uftrace;

use crate::decoder::{Decoder, FileProbe, LoadError};
use crate::model::Format;

/// A format's answer to "are these files yours?", as inferno's `guess.rs`
/// asks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sniff {
    Yes,
    No,
    /// The heads offered are too short to tell. With every head of
    /// [`crate::decoder::PROBE_BYTES`] there is nothing more to see, so
    /// detection counts it as not this format.
    NeedMore,
}

impl From<bool> for Sniff {
    fn from(yes: bool) -> Sniff {
        if yes {
            Sniff::Yes
        } else {
            Sniff::No
        }
    }
}

/// Opens a format's decoder over the offered files, or says why this output
/// cannot be shown.
pub type Open = fn(Vec<FileProbe>) -> Result<Box<dyn Decoder>, LoadError>;

/// One registered format.
pub struct Registered {
    pub format: Format,
    /// How the format is named in "expected …" messages.
    pub shown: &'static str,
    /// Whether the offered files are this format, judged by content first.
    pub sniff: fn(&[FileProbe]) -> Sniff,
    /// A decoder for the files (or why this output cannot be shown).
    pub open: Open,
}

/// Every format flamedrop reads, in the order detection asks them: the first
/// to answer [`Sniff::Yes`] decodes the files.
pub static FORMATS: &[Registered] = &[
    Registered {
        format: Format::Uftrace,
        shown: "a uftrace.data folder",
        sniff: |probes| uftrace::detect(probes).into(),
        open: |probes| Ok(Box::new(uftrace::UftraceDecoder::new(probes))),
    },
    Registered {
        format: Format::Scaler,
        shown: "Scaler",
        sniff: |probes| scaler::detect(probes).into(),
        open: open_scaler,
    },
    Registered {
        format: Format::Selogger,
        shown: "SELogger",
        sniff: |probes| selogger::detect(probes).into(),
        open: |probes| Ok(Box::new(selogger::SeloggerDecoder::new(probes))),
    },
    Registered {
        format: Format::SpRtrace,
        shown: "sp-rtrace",
        sniff: |probes| rtrace::detect(probes).into(),
        open: |probes| Ok(Box::new(rtrace::RtraceDecoder::new(probes))),
    },
    Registered {
        format: Format::Swap,
        shown: "SWAP",
        sniff: |probes| swap::detect(probes).into(),
        open: |probes| Ok(Box::new(swap::SwapDecoder::new(probes))),
    },
    #[cfg(feature = "example-format")]
    Registered {
        format: Format::Example,
        shown: "example",
        sniff: example::sniff,
        open: |probes| Ok(Box::new(example::ExampleDecoder::new(probes))),
    },
];

/// Scaler outputs without call trees are recognised, then refused.
fn open_scaler(probes: Vec<FileProbe>) -> Result<Box<dyn Decoder>, LoadError> {
    match scaler::refusal(&probes) {
        Some(reason) => Err(LoadError::Unsupported {
            format: Format::Scaler,
            reason,
        }),
        None => Ok(Box::new(scaler::ScalerDecoder::new(probes))),
    }
}

/// The registered row of `format`.
pub fn registered(format: Format) -> Option<&'static Registered> {
    FORMATS.iter().find(|r| r.format == format)
}

/// Which format the offered files are: the first to say yes.
pub fn detect(probes: &[FileProbe]) -> Result<Format, LoadError> {
    if probes.is_empty() {
        return Err(LoadError::NoFiles);
    }
    FORMATS
        .iter()
        .find(|r| (r.sniff)(probes) == Sniff::Yes)
        .map(|r| r.format)
        .ok_or_else(|| LoadError::UnknownFormat {
            files: probes.iter().map(|p| p.path.clone()).collect(),
            expected: expected(),
        })
}

/// Detects the format and opens its decoder.
pub fn open_decoder(probes: Vec<FileProbe>) -> Result<Box<dyn Decoder>, LoadError> {
    let format = detect(&probes)?;
    match registered(format) {
        Some(row) => (row.open)(probes),
        None => Err(LoadError::UnknownFormat {
            files: probes.iter().map(|p| p.path.clone()).collect(),
            expected: expected(),
        }),
    }
}

/// The formats flamedrop reads, as a phrase: "a, b or c output".
fn expected() -> String {
    let shown: Vec<&str> = FORMATS.iter().map(|r| r.shown).collect();
    match shown.split_last() {
        Some((last, [])) => format!("{last} output"),
        Some((last, rest)) => format!("{} or {last} output", rest.join(", ")),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_is_registered_once() {
        for &format in Format::ALL {
            let rows = FORMATS.iter().filter(|r| r.format == format).count();
            assert_eq!(rows, 1, "{format:?}");
        }
        assert_eq!(FORMATS.len(), Format::ALL.len());
    }

    #[test]
    fn codec_codes_stay_what_they_were() {
        let codes = [
            (Format::Uftrace, 1),
            (Format::Scaler, 2),
            (Format::Swap, 3),
            (Format::SpRtrace, 4),
            (Format::Selogger, 5),
        ];
        for (format, code) in codes {
            assert_eq!(format.code(), code);
            assert_eq!(Format::from_code(code), Some(format));
        }
        assert_eq!(Format::from_code(0), None);
        assert_eq!(Format::from_code(200), None);
    }

    #[test]
    fn the_expected_formats_are_named_from_the_registry() {
        let text = expected();
        assert!(text.starts_with("a uftrace.data folder, Scaler, "));
        assert!(text.ends_with(" output"));
        for row in FORMATS {
            assert!(text.contains(row.shown));
        }
    }

    #[test]
    fn nothing_offered_or_nothing_known_is_said_so() {
        assert_eq!(detect(&[]), Err(LoadError::NoFiles));
        let png = FileProbe {
            path: "photo.png".into(),
            size: 6,
            head: b"\x89PNG\r\n".to_vec(),
        };
        let err = detect(&[png]).unwrap_err();
        assert!(err.to_string().contains("photo.png"));
        assert!(err.to_string().contains(&expected()));
        assert_eq!(Sniff::from(true), Sniff::Yes);
    }
}
