//! tar archives (POSIX ustar, GNU long names, pax `path` records, and old v7
//! headers), read as a stream so a `.tar.gz` never sits whole in memory.

use super::{ArchiveError, Expansion};
use crate::model::Severity;
use std::io::Read;

const BLOCK: usize = 512;
/// Longest GNU long name or pax header read (real ones are a few hundred bytes).
const MAX_META: u64 = 1 << 20;

/// True when `head` starts with a tar header: the ustar magic or, for a file
/// named `*.tar`, a valid checksum or an empty archive's zero block.
pub(super) fn looks_like_tar(head: &[u8], tar_name: bool) -> bool {
    let Some(block) = head.get(..BLOCK) else {
        return false;
    };
    let ustar = block.get(257..262) == Some(b"ustar".as_slice());
    if ustar && checksum_ok(block) {
        return true;
    }
    tar_name && (checksum_ok(block) || block.iter().all(|&b| b == 0))
}

/// The header checksum: the byte sum with the checksum field read as spaces.
fn checksum_ok(block: &[u8]) -> bool {
    let Some(stored) = block.get(148..156).and_then(octal) else {
        return false;
    };
    let sum: u64 = block
        .iter()
        .enumerate()
        .map(|(i, &b)| {
            if (148..156).contains(&i) {
                32
            } else {
                u64::from(b)
            }
        })
        .sum();
    sum == stored
}

/// An octal number field (NUL- or space-terminated), or base-256 when the
/// first byte's high bit is set (GNU, for sizes over 8 GiB).
fn octal(field: &[u8]) -> Option<u64> {
    if field.first().is_some_and(|b| b & 0x80 != 0) {
        let mut value: u64 = u64::from(field.first()? & 0x7f);
        for &b in field.get(1..)? {
            value = value.checked_mul(256)?.checked_add(u64::from(b))?;
        }
        return Some(value);
    }
    let text = std::str::from_utf8(field).ok()?;
    let digits = text.trim_matches(|c: char| c == '\0' || c == ' ');
    if digits.is_empty() {
        return Some(0);
    }
    u64::from_str_radix(digits, 8).ok()
}

fn text(field: &[u8]) -> String {
    let end = field.iter().position(|&b| b == 0).unwrap_or(field.len());
    String::from_utf8_lossy(field.get(..end).unwrap_or(&[])).into_owned()
}

/// Expands a tar held in memory.
pub(super) fn expand(data: &[u8], out: &mut Expansion) -> Result<(), ArchiveError> {
    let mut reader = data;
    expand_stream(&mut reader, out)
}

/// Reads until `buf` is full or the stream ends; the bytes read.
fn read_full(reader: &mut dyn Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match reader.read(buf.get_mut(filled..).unwrap_or(&mut [])) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

/// Counts the bytes that pass through a reader.
struct Counting<'a> {
    inner: &'a mut dyn Read,
    count: u64,
}

impl Read for Counting<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count += n as u64;
        Ok(n)
    }
}

/// Expands a tar read from `reader` (plain, or out of a gzip stream).
pub(super) fn expand_stream(
    reader: &mut dyn Read,
    out: &mut Expansion,
) -> Result<(), ArchiveError> {
    let mut offset: u64 = 0;
    let mut long_name: Option<String> = None;
    let mut header = [0u8; BLOCK];
    while read_header(reader, &mut header, offset, out)? {
        let size = header.get(124..136).and_then(octal).unwrap_or(0);
        let kind = header.get(156).copied().unwrap_or(0);
        let header_offset = offset;
        offset += BLOCK as u64;
        let padded = size.div_ceil(BLOCK as u64) * BLOCK as u64;
        match kind {
            b'L' | b'x' => {
                let meta = read_meta(reader, size, out, header_offset)?;
                let name = if kind == b'L' {
                    Some(text(&meta))
                } else {
                    pax_path(&meta)
                };
                if name.is_some() {
                    long_name = name;
                }
                skip(reader, padded - size, out, offset + size)?;
            }
            b'0' | 0 | b'7' => {
                let name = long_name.take().unwrap_or_else(|| full_name(&header));
                if !read_file(reader, &name, size, header_offset, out)? {
                    return Ok(());
                }
                skip(reader, padded - size, out, offset + size)?;
            }
            _ => {
                // Folders, links, devices, global pax headers: nothing to expand.
                long_name = None;
                skip(reader, padded, out, offset)?;
            }
        }
        offset += padded;
    }
    Ok(())
}

/// Reads the header block at `offset`; false at the end of the archive, or
/// where it cannot be read any further (noted).
fn read_header(
    reader: &mut dyn Read,
    header: &mut [u8; BLOCK],
    offset: u64,
    out: &mut Expansion,
) -> Result<bool, ArchiveError> {
    let n = match read_full(reader, header) {
        Ok(n) => n,
        Err(e) if offset == 0 => return Err(out.damaged(&e.to_string())),
        Err(e) => {
            out.note(
                "tar-truncated",
                Severity::DataLoss,
                format!("the archive cannot be read past this point: {e}"),
                Some(offset),
            );
            return Ok(false);
        }
    };
    if n == 0 {
        return Ok(false); // ended without the two zero blocks: tolerated
    }
    if n < BLOCK {
        out.note(
            "tar-truncated",
            Severity::DataLoss,
            format!("the archive ends inside a header ({n} of 512 bytes)"),
            Some(offset),
        );
        return Ok(false);
    }
    if header.iter().all(|&b| b == 0) {
        return Ok(false); // end of archive
    }
    if !checksum_ok(header) {
        if offset == 0 {
            return Err(out.damaged("the first header's checksum is wrong"));
        }
        out.note(
            "tar-bad-header",
            Severity::DataLoss,
            "a header's checksum is wrong; the rest of the archive is skipped".to_owned(),
            Some(offset),
        );
        return Ok(false);
    }
    Ok(true)
}

/// Expands the `size` bytes of the regular file `name` (or skips them when
/// it is not wanted); false when the archive ends inside it (noted).
fn read_file(
    reader: &mut dyn Read,
    name: &str,
    size: u64,
    header_offset: u64,
    out: &mut Expansion,
) -> Result<bool, ArchiveError> {
    let mut counting = Counting {
        inner: reader,
        count: 0,
    };
    if !out.begin(name)? {
        std::io::copy(&mut (&mut counting).take(size), &mut std::io::sink())
            .map_err(|e| out.damaged(&e.to_string()))?;
        return Ok(true);
    }
    let mut entry = (&mut counting).take(size);
    let failure = out.copy(&mut entry)?;
    out.end()?;
    if counting.count < size {
        let why = failure.map(|f| format!(" ({f})")).unwrap_or_default();
        out.note(
            "tar-entry-truncated",
            Severity::DataLoss,
            format!(
                "{name} is cut short: {} of {size} bytes{why}",
                counting.count
            ),
            Some(header_offset),
        );
        return Ok(false);
    }
    Ok(true)
}

/// The entry name: ustar's prefix and name joined.
fn full_name(header: &[u8; BLOCK]) -> String {
    let name = text(header.get(..100).unwrap_or(&[]));
    let ustar = header.get(257..262) == Some(b"ustar".as_slice());
    let prefix = if ustar {
        text(header.get(345..500).unwrap_or(&[]))
    } else {
        String::new()
    };
    if prefix.is_empty() {
        name
    } else {
        format!("{prefix}/{name}")
    }
}

fn read_meta(
    reader: &mut dyn Read,
    size: u64,
    out: &mut Expansion,
    offset: u64,
) -> Result<Vec<u8>, ArchiveError> {
    let mut meta = Vec::new();
    reader
        .take(size.min(MAX_META))
        .read_to_end(&mut meta)
        .map_err(|e| out.damaged(&format!("at byte {offset}: {e}")))?;
    if size > MAX_META {
        skip(reader, size - MAX_META, out, offset)?;
    }
    Ok(meta)
}

/// The `path` record of a pax extended header (`"<len> path=<value>\n"`).
fn pax_path(meta: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(meta);
    text.lines()
        .rev()
        .find_map(|line| line.split_once(' ')?.1.strip_prefix("path="))
        .map(str::to_owned)
}

fn skip(
    reader: &mut dyn Read,
    n: u64,
    out: &mut Expansion,
    offset: u64,
) -> Result<(), ArchiveError> {
    std::io::copy(&mut reader.take(n), &mut std::io::sink())
        .map(|_| ())
        .map_err(|e| out.damaged(&format!("at byte {offset}: {e}")))
}
