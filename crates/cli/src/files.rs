//! Reading paths from disk into a decoder: folders are walked, archives are
//! expanded in memory, files are probed by their first bytes, then fed in
//! chunks in the decoder's order.

use flamedrop_core::archive::{self, Limits, MemorySink, ARCHIVE_PROBE_BYTES};
use flamedrop_core::input::{empty_archives, open_decoder, FileProbe, PROBE_BYTES};
use flamedrop_core::model::{Diagnostic, Format};
use flamedrop_core::Trace;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

const CHUNK: usize = 8 << 20;

/// Decodes the files at `paths` (files or folders).
pub fn decode_paths(paths: &[String]) -> Result<Trace, String> {
    decode_paths_checked(paths, |_| Ok(()))
}

/// Decodes the files at `paths` once `check` has accepted their format
/// (told before the files are read, so a refusal costs nothing).
pub fn decode_paths_checked(
    paths: &[String],
    check: impl FnOnce(Format) -> Result<(), String>,
) -> Result<Trace, String> {
    if let Some(saved) = crate::saved_input::read_saved(paths) {
        let trace = saved?;
        if let Some(format) = trace.format {
            check(format)?;
        }
        return Ok(trace);
    }
    let (sources, notes) = expand_archives(found_files(paths)?)?;
    let probes = sources
        .iter()
        .map(|(name, source)| probe(name, source))
        .collect::<Result<Vec<_>, _>>()?;
    let mut decoder = open_decoder(probes).map_err(|e| e.to_string())?;
    check(decoder.format())?;
    let mut buffer = vec![0u8; CHUNK];
    for index in decoder.plan() {
        let Some((_, source)) = sources.get(index) else {
            continue;
        };
        decoder.begin_file(index);
        match source {
            Source::Memory(data) => data.chunks(CHUNK).for_each(|c| decoder.feed(c)),
            Source::Disk(path) => {
                let mut file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
                loop {
                    let n = file
                        .read(&mut buffer)
                        .map_err(|e| format!("{}: {e}", path.display()))?;
                    if n == 0 {
                        break;
                    }
                    decoder.feed(&buffer[..n]);
                }
            }
        }
        decoder.end_file();
    }
    let mut trace = decoder.finish();
    trace.diagnostics.extend(notes);
    Ok(trace)
}

/// Every file at `paths` (folders walked), as (name, path), sorted.
pub fn found_files(paths: &[String]) -> Result<Vec<(String, PathBuf)>, String> {
    let mut found: Vec<(String, PathBuf)> = Vec::new();
    for path in paths {
        let root = Path::new(path);
        if root.is_dir() {
            walk(root, root, &mut found)?;
        } else if root.is_file() {
            let name = root
                .file_name()
                .map_or(path.clone(), |n| n.to_string_lossy().into_owned());
            found.push((name, root.to_path_buf()));
        } else {
            return Err(format!("{path}: no such file or folder"));
        }
    }
    found.sort();
    Ok(found)
}

/// The files to decode: each archive among `found` replaced by the files it
/// holds (read into memory), with what the archives said.
fn expand_archives(found: Vec<(String, PathBuf)>) -> Result<(Vec<Named>, Vec<Diagnostic>), String> {
    let mut sources: Vec<Named> = Vec::with_capacity(found.len());
    let mut notes = Vec::new();
    let mut archives = 0;
    for (name, path) in found {
        let head = read_head(&path, ARCHIVE_PROBE_BYTES)?;
        if archive::kind(flamedrop_core::input::file_name(&name), &head).is_none() {
            sources.push((name, Source::Disk(path)));
            continue;
        }
        archives += 1;
        let data = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut sink = MemorySink::default();
        notes.extend(
            archive::expand(&name, &data, &Limits::default(), &mut sink)
                .map_err(|e| e.to_string())?,
        );
        sources.extend(sink.files.into_iter().map(|(n, d)| (n, Source::Memory(d))));
    }
    if sources.is_empty() && archives > 0 {
        return Err(empty_archives(&notes).to_string());
    }
    Ok((sources, notes))
}

/// What the decoder is told of a file before it is read: size and first bytes.
fn probe(name: &str, source: &Source) -> Result<FileProbe, String> {
    let (size, head) = match source {
        Source::Disk(path) => (
            std::fs::metadata(path)
                .map_err(|e| format!("{}: {e}", path.display()))?
                .len(),
            read_head(path, PROBE_BYTES)?,
        ),
        Source::Memory(data) => (
            data.len() as u64,
            data[..data.len().min(PROBE_BYTES)].to_vec(),
        ),
    };
    Ok(FileProbe {
        path: name.to_owned(),
        size,
        head,
    })
}

/// A file to decode: its name for the decoder, and where its bytes are.
type Named = (String, Source);

/// Where a file's bytes are: on disk, or expanded from an archive.
enum Source {
    Disk(PathBuf),
    Memory(Vec<u8>),
}

/// Up to `n` first bytes of a file.
fn read_head(path: &Path, n: usize) -> Result<Vec<u8>, String> {
    let mut head = Vec::with_capacity(n);
    File::open(path)
        .and_then(|f| f.take(n as u64).read_to_end(&mut head))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(head)
}

/// Collects the files below `dir` with paths relative to `root`'s parent, so a
/// dropped `uftrace.data/` keeps its folder name as it does in the browser.
fn walk(root: &Path, dir: &Path, found: &mut Vec<(String, PathBuf)>) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("{}: {e}", dir.display()))?;
        let path = entry.path();
        if path.is_dir() {
            walk(root, &path, found)?;
        } else if path.is_file() {
            let base = root.parent().unwrap_or(root);
            let relative = path.strip_prefix(base).unwrap_or(&path);
            let name = relative.to_string_lossy().replace('\\', "/");
            found.push((name, path));
        }
    }
    Ok(())
}
