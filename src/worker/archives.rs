//! Archives among the files sent to the worker: each is read whole, expanded
//! by `flamedrop_core::archive`, and its entries become new `Blob`s (held by
//! the browser, outside wasm memory) that are decoded like dropped files.

use super::reader;
use crate::view_model::source_view_files::is_java;
use crate::wire::protocol::InputFile;
use flamedrop_core::archive::{self, Limits, Sink, ARCHIVE_PROBE_BYTES};
use flamedrop_core::input::{empty_archives, file_name};
use flamedrop_core::model::Diagnostic;

/// Builds one `Blob` per expanded file from the chunks the expansion hands out.
struct BlobSink {
    files: Vec<InputFile>,
    current: Option<(String, js_sys::Array)>,
}

impl Sink for BlobSink {
    fn begin(&mut self, path: &str) -> Result<(), String> {
        self.current = Some((path.to_owned(), js_sys::Array::new()));
        Ok(())
    }

    fn data(&mut self, bytes: &[u8]) -> Result<(), String> {
        let Some((_, parts)) = &self.current else {
            return Err("data before any file".to_owned());
        };
        // `from` copies the chunk out of wasm memory.
        parts.push(&js_sys::Uint8Array::from(bytes));
        Ok(())
    }

    fn end(&mut self) -> Result<(), String> {
        let Some((path, parts)) = self.current.take() else {
            return Ok(());
        };
        let blob = web_sys::Blob::new_with_u8_array_sequence(&parts)
            .map_err(|e| format!("the browser could not hold {path}: {e:?}"))?;
        self.files.push(InputFile { path, blob });
        Ok(())
    }
}

/// Replaces every archive among `files` by the files it holds; also returns
/// what the expansion skipped or lost.
pub async fn expand(files: Vec<InputFile>) -> Result<(Vec<InputFile>, Vec<Diagnostic>), String> {
    let mut out = Vec::with_capacity(files.len());
    let mut notes = Vec::new();
    let mut archives = 0;
    let mut head = Vec::new();
    for file in files {
        let probe = file.size().min(ARCHIVE_PROBE_BYTES as f64);
        reader::read_into(&file.blob, 0.0, probe, &mut head)
            .await
            .map_err(|e| format!("could not read {}: {e}", file.path))?;
        if archive::kind(file_name(&file.path), &head).is_none() {
            out.push(file);
            continue;
        }
        archives += 1;
        super::post(&crate::wire::protocol::WorkerEvent::Progress {
            read: 0.0,
            total: 0.0,
            file: file.path.clone(),
        });
        let limits = Limits::default();
        if file.size() > limits.max_total_bytes as f64 {
            return Err(format!(
                "{}: this archive is bigger than {} MiB, the most flamedrop unpacks in the browser; \
                 unpack it and open the folder",
                file.path,
                limits.max_total_bytes >> 20
            ));
        }
        let mut data = Vec::new();
        reader::read_into(&file.blob, 0.0, file.size(), &mut data)
            .await
            .map_err(|e| format!("could not read {}: {e}", file.path))?;
        let mut sink = BlobSink {
            files: Vec::new(),
            current: None,
        };
        notes.extend(
            archive::expand(&file.path, &data, &limits, &mut sink).map_err(|e| e.to_string())?,
        );
        // Sources in an archive are the page's (`loading::sources`), not the decoder's.
        out.extend(sink.files.into_iter().filter(|f| !is_java(&f.path)));
    }
    if out.is_empty() && archives > 0 {
        return Err(empty_archives(&notes).to_string());
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    Ok((out, notes))
}
