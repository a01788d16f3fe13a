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

/// What a decoder is chosen from for files held in memory: each one's path,
/// size and first [`PROBE_BYTES`].
pub fn probes_of(files: &[(String, Vec<u8>)]) -> Vec<FileProbe> {
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
    let joins = first.joins_parts();
    let (first, rest) = std::thread::scope(|scope| {
        let others: Vec<_> = (1..parts)
            .map(|part| {
                scope.spawn(move || -> Result<Part, LoadError> {
                    let mut decoder = open()?;
                    decoder.keep_part(part, parts);
                    feed_files(decoder.as_mut(), files, chunk);
                    Ok(match joins {
                        true => Part::HandOver(decoder.hand_over()),
                        false => Part::Trace(Box::new(decoder.finish())),
                    })
                })
            })
            .collect();
        let mut first = first;
        feed_files(first.as_mut(), files, chunk);
        let rest = others.into_iter().map(|h| {
            h.join()
                .unwrap_or_else(|_| Err(LoadError::Split("a decoding thread stopped".into())))
        });
        (first, rest.collect::<Result<Vec<_>, _>>())
    });
    let rest = rest?;
    if joins {
        let mut first = first;
        for part in rest {
            if let Part::HandOver(part) = part {
                if first.take_over(part).is_err() {
                    // The parts do not join exactly: decode the input whole.
                    WHOLE_AFTER_ALL.with(|n| n.set(n.get() + 1));
                    return decode_plain_files(files, chunk);
                }
            }
        }
        return Ok(first.finish());
    }
    let mut whole = first.finish();
    for part in rest {
        if let Part::Trace(part) = part {
            crate::model::merge::merge_part(&mut whole, *part).map_err(LoadError::Split)?;
        }
    }
    Ok(whole)
}

#[cfg(not(target_arch = "wasm32"))]
thread_local! {
    /// Joined decodes on this thread whose parts did not join exactly, so
    /// that the input was decoded whole after all (the tests check that
    /// undamaged inputs really are decoded in parts).
    static WHOLE_AFTER_ALL: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// How many of this thread's [`decode_files_in_parts`] calls so far had to
/// decode their input whole after all, because its parts did not join
/// exactly (see [`crate::decoder::Decoder::take_over`]).
#[cfg(not(target_arch = "wasm32"))]
pub fn parts_decoded_whole_after_all() -> usize {
    WHOLE_AFTER_ALL.with(std::cell::Cell::get)
}

/// What a part decoded on a thread of its own gives back.
#[cfg(not(target_arch = "wasm32"))]
enum Part {
    Trace(Box<Trace>),
    HandOver(crate::decoder::PartHandOver),
}

/// Feeds every planned file to `decoder` in chunks of `chunk` bytes.
fn feed_all(mut decoder: Box<dyn Decoder>, files: &[(String, Vec<u8>)], chunk: usize) -> Trace {
    feed_files(decoder.as_mut(), files, chunk);
    decoder.finish()
}

/// Feeds every planned file to `decoder` in chunks of `chunk` bytes, each
/// from where the decoder's part of it starts and until it has enough.
fn feed_files(decoder: &mut dyn Decoder, files: &[(String, Vec<u8>)], chunk: usize) {
    for index in decoder.plan() {
        let Some((_, data)) = files.get(index) else {
            continue;
        };
        decoder.begin_file(index);
        let start =
            usize::try_from(decoder.start_of(index)).map_or(data.len(), |s| s.min(data.len()));
        for part in data[start..].chunks(chunk.max(1)) {
            decoder.feed(part);
            if decoder.has_enough() {
                break;
            }
        }
        decoder.end_file();
    }
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
