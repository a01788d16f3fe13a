//! The driver: decodes files held in memory (the command line's and the
//! tests' way in) by detecting their format, expanding archives among them,
//! and feeding the planned files to the decoder in chunks, whole or split in
//! parts on threads of their own.
//!
//! The browser worker drives the same [`Decoder`] protocol from `Blob` slices,
//! so a trace decodes the same way everywhere.

use crate::archive;
#[cfg(not(target_arch = "wasm32"))]
use crate::decoder::Selection;
use crate::decoder::{file_name, Decoder, FileProbe, LoadError, PROBE_BYTES};
use crate::formats::open_decoder;
use crate::model::Trace;

/// Chunk size for decoding files held in memory.
const CHUNK_BYTES: usize = 8 << 20;

/// Decodes files held in memory, feeding them in chunks of `chunk` bytes.
/// This is the command line's and the tests' way in.
/// Archives among the files are expanded first (see [`crate::archive`]).
pub fn decode_files_chunked(files: &[(String, Vec<u8>)], chunk: usize) -> Result<Trace, LoadError> {
    let is_archive = |(path, data): &(String, Vec<u8>)| {
        let head = &data[..data.len().min(archive::ARCHIVE_PROBE_BYTES)];
        archive::kind(file_name(path), head).is_some()
    };
    if !files.iter().any(is_archive) {
        return decode_plain_files(files, chunk);
    }
    let (expanded, notes) = archive::expand_in_memory(files.to_vec(), &archive::Limits::default())
        .map_err(|e| LoadError::Archive(e.to_string()))?;
    if expanded.is_empty() {
        return Err(empty_archives(&notes));
    }
    let mut trace = decode_plain_files(&expanded, chunk)?;
    trace.diagnostics.extend(notes);
    Ok(trace)
}

/// The error for archives that held nothing: their own words when they said so.
pub fn empty_archives(notes: &[crate::model::Diagnostic]) -> LoadError {
    let said: Vec<String> = notes.iter().map(|d| d.text()).collect();
    if said.is_empty() {
        LoadError::NoFiles
    } else {
        LoadError::Archive(said.join("; "))
    }
}

fn decode_plain_files(files: &[(String, Vec<u8>)], chunk: usize) -> Result<Trace, LoadError> {
    let decoder = open_decoder(probes_of(files))?;
    Ok(feed_all(decoder, files, chunk))
}

fn probes_of(files: &[(String, Vec<u8>)]) -> Vec<FileProbe> {
    files
        .iter()
        .map(|(path, data)| FileProbe {
            path: path.clone(),
            size: data.len() as u64,
            head: data[..data.len().min(PROBE_BYTES)].to_vec(),
        })
        .collect()
}

/// Decodes files held in memory (no archives) in up to `parts` parts on
/// threads of their own, then merges the parts, as the page does with
/// several workers. Inputs that cannot be split decode in one part.
#[cfg(not(target_arch = "wasm32"))]
pub fn decode_files_in_parts(
    files: &[(String, Vec<u8>)],
    parts: usize,
) -> Result<Trace, LoadError> {
    decode_files_in_parts_chunked(files, parts, CHUNK_BYTES)
}

/// [`decode_files_in_parts`], feeding each part chunks of `chunk` bytes (the
/// tests cut records and packets at awkward places with small ones).
#[cfg(not(target_arch = "wasm32"))]
pub fn decode_files_in_parts_chunked(
    files: &[(String, Vec<u8>)],
    parts: usize,
    chunk: usize,
) -> Result<Trace, LoadError> {
    decode_files_selected(files, parts, chunk, &Selection::default())
}

/// [`decode_files_in_parts_chunked`] keeping only `selection` (threads, time
/// window; [`Decoder::keep_only`]). A format that cannot keep a part is an
/// error, not silently decoded whole.
#[cfg(not(target_arch = "wasm32"))]
pub fn decode_files_selected(
    files: &[(String, Vec<u8>)],
    parts: usize,
    chunk: usize,
    selection: &Selection,
) -> Result<Trace, LoadError> {
    let open = || -> Result<Box<dyn Decoder>, LoadError> {
        let mut decoder = open_decoder(probes_of(files))?;
        if !selection.keeps_everything() && !decoder.keep_only(selection) {
            return Err(LoadError::Unsupported {
                format: decoder.format(),
                reason: "this format's decoder cannot keep only some threads or a time window"
                    .into(),
            });
        }
        Ok(decoder)
    };
    let mut first = open()?;
    if !first.keep_part(0, parts) {
        return Ok(feed_all(first, files, chunk));
    }
    let rest: Vec<Trace> = std::thread::scope(|scope| {
        let others: Vec<_> = (1..parts)
            .map(|part| {
                scope.spawn(move || -> Result<Trace, LoadError> {
                    let mut decoder = open()?;
                    decoder.keep_part(part, parts);
                    Ok(feed_all(decoder, files, chunk))
                })
            })
            .collect();
        let whole = feed_all(first, files, chunk);
        let mut all = vec![Ok(whole)];
        all.extend(others.into_iter().map(|h| {
            h.join()
                .unwrap_or_else(|_| Err(LoadError::Split("a decoding thread stopped".into())))
        }));
        all.into_iter().collect::<Result<Vec<_>, _>>()
    })?;
    let mut rest = rest.into_iter();
    let mut whole = rest.next().unwrap_or_default();
    for part in rest {
        crate::model::merge::merge_part(&mut whole, part).map_err(LoadError::Split)?;
    }
    Ok(whole)
}

/// Feeds every planned file to `decoder` in chunks of `chunk` bytes.
fn feed_all(mut decoder: Box<dyn Decoder>, files: &[(String, Vec<u8>)], chunk: usize) -> Trace {
    for index in decoder.plan() {
        let Some((_, data)) = files.get(index) else {
            continue;
        };
        decoder.begin_file(index);
        for part in data.chunks(chunk.max(1)) {
            decoder.feed(part);
        }
        decoder.end_file();
    }
    decoder.finish()
}

/// Decodes files held in memory.
pub fn decode_files(files: &[(String, Vec<u8>)]) -> Result<Trace, LoadError> {
    decode_files_chunked(files, CHUNK_BYTES)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_files_get_a_message_naming_them() {
        let err = decode_files(&[("photo.png".into(), b"\x89PNG\r\n".to_vec())]).unwrap_err();
        assert!(err.to_string().contains("photo.png"));
        assert_eq!(decode_files(&[]).unwrap_err(), LoadError::NoFiles);
    }
}
