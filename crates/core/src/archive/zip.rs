//! zip archives: the central directory (with zip64 sizes and offsets), then
//! each file's data, stored or deflated. When the central directory is missing
//! (a cut download), files are found by walking the local headers instead.

use super::{ArchiveError, Expansion};
use crate::formats::common::Endian::Little as LE;
use crate::formats::common::{u16_at, u32_at, u64_at};
use crate::model::Severity;
use flate2::read::DeflateDecoder;
use flate2::CrcReader;
use std::io::Read;

const LOCAL: u32 = 0x0403_4b50;
const CENTRAL: u32 = 0x0201_4b50;
const END: u32 = 0x0605_4b50;
const END64: u32 = 0x0606_4b50;
const END64_LOCATOR: u32 = 0x0706_4b50;

/// What the central directory says about one file.
struct Entry {
    name: String,
    flags: u16,
    method: u16,
    crc: u32,
    compressed: u64,
    local_offset: u64,
}

pub(super) fn expand(data: &[u8], out: &mut Expansion) -> Result<(), ArchiveError> {
    let entries = match central_directory(data) {
        Some(entries) => entries,
        None => {
            out.note(
                "zip-no-directory",
                Severity::DataLoss,
                "the zip's central directory is missing or damaged (a cut download?); files were \
                 found from their local headers"
                    .to_owned(),
                None,
            );
            local_headers(data)
        }
    };
    for entry in entries {
        extract(data, &entry, out)?;
    }
    Ok(())
}

/// The end-of-central-directory record: searched backwards over the comment.
fn find_end(data: &[u8]) -> Option<usize> {
    let last = data.len().checked_sub(22)?;
    let first = last.saturating_sub(0xffff);
    (first..=last)
        .rev()
        .find(|&at| u32_at(data, at, LE) == Some(END))
}

fn central_directory(data: &[u8]) -> Option<Vec<Entry>> {
    let end = find_end(data)?;
    let mut count = u64::from(u16_at(data, end + 10, LE)?);
    let mut offset = u64::from(u32_at(data, end + 16, LE)?);
    if count == 0xffff || offset == 0xffff_ffff {
        let locator = end.checked_sub(20)?;
        if u32_at(data, locator, LE) == Some(END64_LOCATOR) {
            let end64 = usize::try_from(u64_at(data, locator + 8, LE)?).ok()?;
            if u32_at(data, end64, LE) != Some(END64) {
                return None;
            }
            count = u64_at(data, end64 + 32, LE)?;
            offset = u64_at(data, end64 + 48, LE)?;
        }
    }
    let mut at = usize::try_from(offset).ok()?;
    // Each central record takes at least 46 bytes: a count beyond that is a lie.
    let mut entries = Vec::with_capacity(usize::try_from(count).ok()?.min(data.len() / 46));
    for _ in 0..count {
        if u32_at(data, at, LE)? != CENTRAL {
            return None;
        }
        let flags = u16_at(data, at + 8, LE)?;
        let method = u16_at(data, at + 10, LE)?;
        let crc = u32_at(data, at + 16, LE)?;
        let mut compressed = u64::from(u32_at(data, at + 20, LE)?);
        let uncompressed = u32_at(data, at + 24, LE)?;
        let name_len = usize::from(u16_at(data, at + 28, LE)?);
        let extra_len = usize::from(u16_at(data, at + 30, LE)?);
        let comment_len = usize::from(u16_at(data, at + 32, LE)?);
        let mut local_offset = u64::from(u32_at(data, at + 42, LE)?);
        let name_at = at + 46;
        let name = String::from_utf8_lossy(data.get(name_at..name_at + name_len)?).into_owned();
        let extra = data.get(name_at + name_len..name_at + name_len + extra_len)?;
        // zip64: the fields that overflowed, in this order, in extra block 1.
        if let Some(mut z) = zip64_extra(extra) {
            if uncompressed == 0xffff_ffff {
                z = z.get(8..).unwrap_or(&[]);
            }
            if compressed == 0xffff_ffff {
                compressed = u64_at(z, 0, LE).unwrap_or(compressed);
                z = z.get(8..).unwrap_or(&[]);
            }
            if local_offset == 0xffff_ffff {
                local_offset = u64_at(z, 0, LE).unwrap_or(local_offset);
            }
        }
        entries.push(Entry {
            name,
            flags,
            method,
            crc,
            compressed,
            local_offset,
        });
        at = name_at + name_len + extra_len + comment_len;
    }
    Some(entries)
}

/// The body of the zip64 extra block (id 1), if present.
fn zip64_extra(mut extra: &[u8]) -> Option<&[u8]> {
    while extra.len() >= 4 {
        let id = u16_at(extra, 0, LE)?;
        let len = usize::from(u16_at(extra, 2, LE)?);
        let body = extra.get(4..4 + len)?;
        if id == 1 {
            return Some(body);
        }
        extra = extra.get(4 + len..)?;
    }
    None
}

/// Entries found by walking local headers from the start, for archives whose
/// directory is gone. Stops at the first entry whose size is not in its local
/// header (written by a streaming zipper).
fn local_headers(data: &[u8]) -> Vec<Entry> {
    let mut entries = Vec::new();
    let mut at = 0usize;
    while u32_at(data, at, LE) == Some(LOCAL) {
        let (Some(flags), Some(method), Some(crc), Some(size), Some(n), Some(e)) = (
            u16_at(data, at + 6, LE),
            u16_at(data, at + 8, LE),
            u32_at(data, at + 14, LE),
            u32_at(data, at + 18, LE),
            u16_at(data, at + 26, LE),
            u16_at(data, at + 28, LE),
        ) else {
            break;
        };
        let name_at = at + 30;
        let Some(name) = data.get(name_at..name_at + usize::from(n)) else {
            break;
        };
        entries.push(Entry {
            name: String::from_utf8_lossy(name).into_owned(),
            flags,
            method,
            crc,
            compressed: u64::from(size),
            local_offset: at as u64,
        });
        if flags & 8 != 0 {
            break;
        }
        at = name_at + usize::from(n) + usize::from(e) + size as usize;
    }
    entries
}

fn extract(data: &[u8], entry: &Entry, out: &mut Expansion) -> Result<(), ArchiveError> {
    if entry.name.ends_with('/') {
        return Ok(());
    }
    let skip = |out: &mut Expansion, kind: &str, why: String| {
        out.note(
            kind,
            Severity::DataLoss,
            format!("{} was skipped: {why}", entry.name),
            Some(entry.local_offset),
        );
        Ok(())
    };
    if entry.flags & 1 != 0 {
        return skip(out, "zip-encrypted", "it is encrypted".to_owned());
    }
    let Some((raw, cut)) = stored_bytes(data, entry) else {
        return skip(
            out,
            "zip-bad-local-header",
            "its local header is damaged".to_owned(),
        );
    };
    let mut reader: Box<dyn Read + '_> = match entry.method {
        0 => Box::new(raw),
        8 => Box::new(DeflateDecoder::new(raw)),
        m => return skip(out, "zip-unsupported-method", unsupported(m)),
    };
    if !out.begin(&entry.name)? {
        return Ok(());
    }
    let mut checked = CrcReader::new(&mut reader);
    let failure = out.copy(&mut checked)?;
    out.end()?;
    let problem = if let Some(f) = failure {
        Some(format!("it could not be expanded to its end: {f}"))
    } else if cut {
        Some("the archive ends inside it".to_owned())
    } else if checked.crc().sum() != entry.crc {
        Some("its checksum does not match: the data is damaged".to_owned())
    } else {
        None
    };
    if let Some(problem) = problem {
        out.note(
            "zip-entry-damaged",
            Severity::DataLoss,
            format!("{}: {problem}", entry.name),
            Some(entry.local_offset),
        );
    }
    Ok(())
}

/// The entry's stored (compressed) bytes after its local header, and
/// whether the archive ends before all of them; `None` when the local
/// header is damaged.
fn stored_bytes<'a>(data: &'a [u8], entry: &Entry) -> Option<(&'a [u8], bool)> {
    let start = usize::try_from(entry.local_offset).unwrap_or(usize::MAX);
    let header = (
        u32_at(data, start, LE),
        u16_at(data, start.saturating_add(26), LE),
        u16_at(data, start.saturating_add(28), LE),
    );
    let (Some(LOCAL), Some(n), Some(e)) = header else {
        return None;
    };
    let body = start + 30 + usize::from(n) + usize::from(e);
    let end = usize::try_from(entry.compressed)
        .ok()
        .and_then(|c| body.checked_add(c));
    let available = data.get(body.min(data.len())..).unwrap_or(&[]);
    Some(match end.and_then(|end| data.get(body..end)) {
        Some(raw) => (raw, false),
        None => (available, true),
    })
}

/// Why an entry compressed with method `method` is skipped.
fn unsupported(method: u16) -> String {
    let name = match method {
        12 => "bzip2",
        14 => "LZMA",
        93 => "zstd",
        95 => "xz",
        _ => "an unknown method",
    };
    format!("it is compressed with {name} (method {method}); flamedrop reads stored and deflated entries")
}
