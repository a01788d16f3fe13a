//! Archives dropped instead of a folder: `.zip`, `.tar`, `.tar.gz`/`.tgz`,
//! and single gzip-compressed files, expanded into the files they hold before
//! format detection.
//!
//! Expansion streams: each entry's bytes go to a [`Sink`] in chunks, so the
//! browser worker can turn them into `Blob`s without holding every expanded
//! file in wasm memory at once. [`Limits`] cap the expanded size and the entry
//! count, so a zip bomb ends with a clear message instead of a dead tab.
//! Entries that cannot be read (encrypted, an unsupported compression method,
//! cut short) are skipped and reported as [`Diagnostic`]s; archives inside
//! archives are passed on as plain files.

#![deny(clippy::indexing_slicing)]

mod gzip;
mod tar;
mod zip;

use crate::model::{Diagnostic, Severity};
use std::fmt;
use std::io::Read;

/// Bytes of a file's start that [`kind`] needs (a tar header is 512 bytes).
pub const ARCHIVE_PROBE_BYTES: usize = 512;

/// Bytes handed to a [`Sink`] at a time.
pub const CHUNK: usize = 4 << 20;

/// What kind of container a file is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// gzip: a single compressed file, or a compressed tar.
    Gzip,
    Tar,
    Zip,
}

/// The container kind of a file, from its first bytes (at least
/// [`ARCHIVE_PROBE_BYTES`] when the file is that long) and its name.
pub fn kind(name: &str, head: &[u8]) -> Option<Kind> {
    if head.starts_with(&[0x1f, 0x8b, 8]) {
        return Some(Kind::Gzip);
    }
    if head.starts_with(b"PK\x03\x04") || head.starts_with(b"PK\x05\x06") {
        return Some(Kind::Zip);
    }
    let tar_name = name.to_ascii_lowercase().ends_with(".tar");
    if tar::looks_like_tar(head, tar_name) {
        return Some(Kind::Tar);
    }
    None
}

/// How far an archive may expand.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Total bytes of all expanded entries.
    pub max_total_bytes: u64,
    /// Number of files.
    pub max_entries: usize,
}

impl Default for Limits {
    /// 2 GiB and 100 000 files: more than any trace folder seen, less than
    /// what would take a browser tab down.
    fn default() -> Self {
        Limits {
            max_total_bytes: 2 << 30,
            max_entries: 100_000,
        }
    }
}

/// Why an archive could not be expanded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArchiveError {
    /// The archive's structure is broken before any file could be found.
    Damaged { archive: String, reason: String },
    /// It would expand beyond [`Limits::max_total_bytes`].
    TooBig { archive: String, limit: u64 },
    /// It holds more than [`Limits::max_entries`] files.
    TooManyEntries { archive: String, limit: usize },
    /// The caller stopped the expansion (its sink failed).
    Stopped { archive: String, reason: String },
}

impl fmt::Display for ArchiveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArchiveError::Damaged { archive, reason } => {
                write!(f, "{archive}: cannot read this archive: {reason}")
            }
            ArchiveError::TooBig { archive, limit } => write!(
                f,
                "{archive}: this archive expands to more than {} MiB, the most flamedrop unpacks \
                 (a zip bomb, or a trace too big for the browser: unpack it and open the folder)",
                limit >> 20
            ),
            ArchiveError::TooManyEntries { archive, limit } => write!(
                f,
                "{archive}: this archive holds more than {limit} files, the most flamedrop unpacks"
            ),
            ArchiveError::Stopped { archive, reason } => write!(f, "{archive}: {reason}"),
        }
    }
}

impl std::error::Error for ArchiveError {}

/// Where expanded files go, one at a time, in chunks.
pub trait Sink {
    /// A new file starts.
    fn begin(&mut self, path: &str) -> Result<(), String>;
    /// The next bytes of the current file.
    fn data(&mut self, bytes: &[u8]) -> Result<(), String>;
    /// The current file is complete.
    fn end(&mut self) -> Result<(), String>;
}

/// Expands `data`, the archive at `path`, into `sink`. Entry paths keep the
/// archive's folder (`traces/run.zip` holding `uftrace.data/info` gives
/// `traces/uftrace.data/info`). Returns what was skipped or lost.
pub fn expand(
    path: &str,
    data: &[u8],
    limits: &Limits,
    sink: &mut dyn Sink,
) -> Result<Vec<Diagnostic>, ArchiveError> {
    let name = crate::decoder::file_name(path);
    let dir = path.strip_suffix(name).unwrap_or_default().to_owned();
    let head = data.get(..ARCHIVE_PROBE_BYTES).unwrap_or(data);
    let mut out = Expansion {
        archive: path.to_owned(),
        dir,
        limits: *limits,
        sink,
        total: 0,
        entries: 0,
        diagnostics: Vec::new(),
        open: false,
    };
    match kind(name, head) {
        Some(Kind::Gzip) => gzip::expand(name, data, &mut out)?,
        Some(Kind::Tar) => tar::expand(data, &mut out)?,
        Some(Kind::Zip) => zip::expand(data, &mut out)?,
        None => return Err(out.damaged("not a zip, tar or gzip file")),
    }
    if out.entries == 0 {
        out.note(
            "archive-empty",
            Severity::Error,
            "the archive holds no files".to_owned(),
            None,
        );
    }
    Ok(out.diagnostics)
}

/// An expansion in progress: counts against the limits, names entries,
/// collects diagnostics.
pub(crate) struct Expansion<'a> {
    archive: String,
    dir: String,
    limits: Limits,
    sink: &'a mut dyn Sink,
    total: u64,
    entries: usize,
    diagnostics: Vec<Diagnostic>,
    open: bool,
}

impl Expansion<'_> {
    pub(crate) fn damaged(&self, reason: &str) -> ArchiveError {
        ArchiveError::Damaged {
            archive: self.archive.clone(),
            reason: reason.to_owned(),
        }
    }

    fn stopped(&self, reason: String) -> ArchiveError {
        ArchiveError::Stopped {
            archive: self.archive.clone(),
            reason,
        }
    }

    /// Records a problem with one entry (or the archive's tail).
    pub(crate) fn note(
        &mut self,
        kind: &str,
        severity: Severity,
        message: String,
        offset: Option<u64>,
    ) {
        self.diagnostics.push(Diagnostic {
            severity,
            kind: kind.to_owned(),
            message,
            file: Some(self.archive.clone()),
            offset,
            count: 1,
        });
    }

    /// Starts an entry named `raw` inside the archive; `false` when the name
    /// is unusable and the entry must be skipped.
    pub(crate) fn begin(&mut self, raw: &str) -> Result<bool, ArchiveError> {
        let Some(clean) = clean_path(raw) else {
            return Ok(false);
        };
        self.entries += 1;
        if self.entries > self.limits.max_entries {
            return Err(ArchiveError::TooManyEntries {
                archive: self.archive.clone(),
                limit: self.limits.max_entries,
            });
        }
        let path = format!("{}{clean}", self.dir);
        self.sink.begin(&path).map_err(|e| self.stopped(e))?;
        self.open = true;
        Ok(true)
    }

    /// Streams the current entry's bytes from `reader` to the sink; the
    /// reader's error (a truncated or corrupt stream), if any, is returned
    /// after what was read is kept.
    pub(crate) fn copy(&mut self, reader: &mut dyn Read) -> Result<Option<String>, ArchiveError> {
        let mut buffer = vec![0u8; CHUNK];
        loop {
            let n = match reader.read(&mut buffer) {
                Ok(0) => return Ok(None),
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Ok(Some(e.to_string())),
            };
            self.total = self.total.saturating_add(n as u64);
            if self.total > self.limits.max_total_bytes {
                return Err(ArchiveError::TooBig {
                    archive: self.archive.clone(),
                    limit: self.limits.max_total_bytes,
                });
            }
            let chunk = buffer.get(..n).unwrap_or(&[]);
            self.sink.data(chunk).map_err(|e| self.stopped(e))?;
        }
    }

    /// Ends the current entry.
    pub(crate) fn end(&mut self) -> Result<(), ArchiveError> {
        if std::mem::take(&mut self.open) {
            self.sink.end().map_err(|e| self.stopped(e))?;
        }
        Ok(())
    }
}

/// A safe relative path for an entry: `/` separators, no leading `/` or
/// drive, no `.` or `..` components. `None` for a folder or an empty name.
fn clean_path(raw: &str) -> Option<String> {
    if raw.ends_with('/') || raw.ends_with('\\') {
        return None;
    }
    let parts: Vec<&str> = raw
        .split(['/', '\\'])
        .filter(|p| !p.is_empty() && *p != "." && *p != ".." && !p.ends_with(':'))
        .collect();
    (!parts.is_empty()).then(|| parts.join("/"))
}

/// Collects expanded files in memory: the command line's and the tests' sink.
#[derive(Default)]
pub struct MemorySink {
    pub files: MemoryFiles,
}

impl Sink for MemorySink {
    fn begin(&mut self, path: &str) -> Result<(), String> {
        self.files.push((path.to_owned(), Vec::new()));
        Ok(())
    }

    fn data(&mut self, bytes: &[u8]) -> Result<(), String> {
        match self.files.last_mut() {
            Some((_, data)) => {
                data.extend_from_slice(bytes);
                Ok(())
            }
            None => Err("data before any file".to_owned()),
        }
    }

    fn end(&mut self) -> Result<(), String> {
        Ok(())
    }
}

/// Files held in memory: (path, bytes).
pub type MemoryFiles = Vec<(String, Vec<u8>)>;

/// Replaces every archive among `files` (in memory) by the files it holds.
/// Files that are not archives pass through unchanged.
pub fn expand_in_memory(
    files: MemoryFiles,
    limits: &Limits,
) -> Result<(MemoryFiles, Vec<Diagnostic>), ArchiveError> {
    let mut out = Vec::with_capacity(files.len());
    let mut diagnostics = Vec::new();
    for (path, data) in files {
        let head = data.get(..ARCHIVE_PROBE_BYTES).unwrap_or(&data);
        if kind(crate::decoder::file_name(&path), head).is_none() {
            out.push((path, data));
            continue;
        }
        let mut sink = MemorySink::default();
        diagnostics.extend(expand(&path, &data, limits, &mut sink)?);
        out.extend(sink.files);
    }
    Ok((out, diagnostics))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_paths_cannot_escape_or_be_absolute() {
        assert_eq!(clean_path("/etc/passwd").as_deref(), Some("etc/passwd"));
        assert_eq!(clean_path("../../x/./y").as_deref(), Some("x/y"));
        assert_eq!(clean_path("C:\\data\\info").as_deref(), Some("data/info"));
        assert_eq!(clean_path("uftrace.data/"), None);
        assert_eq!(clean_path(".."), None);
    }

    #[test]
    fn kinds_are_recognised_by_content() {
        assert_eq!(kind("x", &[0x1f, 0x8b, 8, 0]), Some(Kind::Gzip));
        assert_eq!(kind("x", b"PK\x03\x04rest"), Some(Kind::Zip));
        assert_eq!(kind("x", b"PK\x05\x06"), Some(Kind::Zip));
        assert_eq!(kind("info", b"Ftrace!\0"), None);
        assert_eq!(kind("x.png", b"\x89PNG"), None);
    }
}
