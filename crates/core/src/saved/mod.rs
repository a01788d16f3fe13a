//! The `.flamedrop` analysis file: one decoded trace and the screen it was
//! looked at on, in one file that the page reopens without the original
//! recording and that `flamedrop report` / `convert` read like a trace.
//!
//! Layout (numbers little-endian):
//!
//! | bytes | what |
//! |---|---|
//! | 12 | [`MAGIC`] |
//! | 2 | format version ([`VERSION`]); a newer one is refused by name |
//! | 4 + n | the [`Header`] as JSON: what the page needs to show the same screen |
//! | 8 | the model's length once inflated |
//! | 8 + n | the model: `model::codec`'s encoding (the worker → page hand-off), zlib-compressed |
//!
//! Decoding checks every length and never panics ([`SavedError`] says what
//! is wrong and where).

mod error;

pub use error::SavedError;

use crate::model::{codec, Trace};
use flate2::read::ZlibDecoder;
use flate2::write::ZlibEncoder;
use flate2::Compression;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::{Read, Write};

/// The first bytes of every `.flamedrop` file (as PNG's: a high byte and a
/// line ending catch a file mangled as text).
pub const MAGIC: &[u8; 12] = b"\x89FLAMEDROP\r\n";

/// The format version this flamedrop writes and the newest it reads.
pub const VERSION: u16 = 1;

/// The file name ending the page gives saved analyses.
pub const EXTENSION: &str = ".flamedrop";

/// The screen a trace was saved on. Every field has a default, so a file
/// missing one (or holding one this version does not know) still opens.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Header {
    /// The flamedrop that wrote the file ("flamedrop 0.1.0").
    pub made_by: String,
    /// What was opened ("demo a-simple-nested", "uftrace.data/").
    pub label: String,
    /// The page's URL fragment: view, data source, function, search, time
    /// range, bottom-up, lanes and the narrowing stack.
    pub fragment: String,
    /// The selected span of the trace on screen (narrowed, if the fragment
    /// narrows): thread index, span index.
    pub selected: Option<(u32, u32)>,
    /// The selected event of the event log (SELogger).
    pub event: Option<u32>,
    /// The side panel's open tab ("summary", "details", …).
    pub tab: String,
    /// The node each flame graph canvas (by id) is zoomed into.
    pub zoom: BTreeMap<String, u32>,
    /// The timeline's window: its first and last time (offsets from the
    /// trace's first timestamp) and how far its lanes are scrolled (px).
    pub timeline: Option<(f64, f64, f64)>,
    /// Calls coloured by module / library / class rather than by name.
    pub colour_by_group: bool,
}

impl Header {
    /// The header as JSON (as the file holds it).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// A header from its JSON.
    pub fn from_json(text: &str) -> Result<Header, String> {
        serde_json::from_str(text).map_err(|e| format!("the saved screen does not read: {e}"))
    }
}

/// What a `.flamedrop` file holds.
#[derive(Debug)]
pub struct Saved {
    pub header: Header,
    pub trace: Trace,
}

/// True when `head` (a file's first bytes) starts like a `.flamedrop` file.
pub fn is_saved(head: &[u8]) -> bool {
    head.starts_with(MAGIC)
}

/// The `.flamedrop` file of `trace` shown as `header` says.
pub fn encode(trace: &Trace, header: &Header) -> Vec<u8> {
    encode_first_counters(trace, header, trace.counters.len())
}

/// As [`encode`], keeping only the first `counters` counter tracks: the
/// page leaves out the tracks it added to the decoded trace (uftrace's read
/// triggers), which it adds again when it reopens the file.
pub fn encode_first_counters(trace: &Trace, header: &Header, counters: usize) -> Vec<u8> {
    let model = codec::encode_first_counters(trace, counters);
    let header = serde_json::to_vec(header).unwrap_or_default();
    let mut out = Vec::with_capacity(64 + header.len() + model.len() / 4);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(header.len() as u32).to_le_bytes());
    out.extend_from_slice(&header);
    out.extend_from_slice(&(model.len() as u64).to_le_bytes());
    let at = out.len();
    out.extend_from_slice(&0u64.to_le_bytes());
    let mut deflate = ZlibEncoder::new(out, Compression::default());
    // Writing into a Vec cannot fail.
    let Ok(mut out) = deflate.write_all(&model).and_then(|()| deflate.finish()) else {
        return Vec::new();
    };
    let packed = (out.len() - at - 8) as u64;
    if let Some(slot) = out.get_mut(at..at + 8) {
        slot.copy_from_slice(&packed.to_le_bytes());
    }
    out
}

/// Reads a `.flamedrop` file.
pub fn decode(bytes: &[u8]) -> Result<Saved, SavedError> {
    if !is_saved(bytes) {
        return Err(if MAGIC.starts_with(bytes) && !bytes.is_empty() {
            SavedError::Truncated {
                at: bytes.len() as u64,
                reading: "the file's first bytes",
            }
        } else {
            SavedError::NotSaved
        });
    }
    let mut r = Cursor {
        bytes,
        at: MAGIC.len(),
    };
    let version = u16::from_le_bytes(r.array("the format version")?);
    if version > VERSION {
        return Err(SavedError::Newer {
            version,
            reads_up_to: VERSION,
        });
    }
    let header_len = u32::from_le_bytes(r.array("the header's length")?);
    let header = r.take(header_len as u64, "the header")?;
    let header: Header = serde_json::from_slice(header)
        .map_err(|e| SavedError::Damaged(format!("its header is not readable ({e})")))?;
    let model_len = u64::from_le_bytes(r.array("the model's length")?);
    let packed_len = u64::from_le_bytes(r.array("the model's packed length")?);
    let packed = r.take(packed_len, "the model")?;
    let model = inflate(packed, model_len)?;
    let trace = codec::decode(&model).ok_or_else(|| {
        SavedError::Damaged("its model is not a trace this flamedrop reads".into())
    })?;
    Ok(Saved { header, trace })
}

/// The model, inflated to exactly `len` bytes.
fn inflate(packed: &[u8], len: u64) -> Result<Vec<u8>, SavedError> {
    // The length is the file's word: allocate as the data arrives, not
    // all at once (a damaged length must not ask for terabytes).
    let mut model = Vec::with_capacity(len.min(packed.len() as u64 * 4) as usize);
    ZlibDecoder::new(packed)
        .take(len.saturating_add(1))
        .read_to_end(&mut model)
        .map_err(|e| SavedError::Damaged(format!("its model does not inflate ({e})")))?;
    if model.len() as u64 != len {
        return Err(SavedError::Damaged(format!(
            "its model inflates to {} bytes, not the {len} its header says",
            model.len()
        )));
    }
    Ok(model)
}

/// Bounds-checked reads from the start of the file, naming the byte where
/// the file ends when one runs past it.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: u64, reading: &'static str) -> Result<&'a [u8], SavedError> {
        let end = usize::try_from(n)
            .ok()
            .and_then(|n| self.at.checked_add(n))
            .filter(|&end| end <= self.bytes.len());
        let Some(end) = end else {
            return Err(SavedError::Truncated {
                at: self.bytes.len() as u64,
                reading,
            });
        };
        let taken = self.bytes.get(self.at..end).unwrap_or_default();
        self.at = end;
        Ok(taken)
    }

    fn array<const N: usize>(&mut self, reading: &'static str) -> Result<[u8; N], SavedError> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.take(N as u64, reading)?);
        Ok(out)
    }
}

#[cfg(test)]
mod tests;
