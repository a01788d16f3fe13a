//! The traced program's sources among the opened files: `.java` files and
//! sources `.jar`s are taken out of what the decoder reads and kept as text
//! ([`SourceFiles`]) for the Source view; a small `.zip` holding only
//! sources is taken out too, and one holding a trace as well gives its
//! `.java` entries and still goes to the decoder (whose archive expansion
//! leaves `.java` entries out: `worker::archives`). A `.jar` / `.zip` that
//! is too big to read here, cannot be read, or holds more than sources goes
//! to the decoder too, which counts it among the ignored files: nothing is
//! dropped unreported.

use super::InputFile;
use crate::browser::describe;
use crate::view_model::source_view_files::{is_java, SourceFiles, MAX_SOURCE_ARCHIVE};
use wasm_bindgen_futures::JsFuture;

/// Splits the opened files into the ones to decode and the sources.
pub async fn take(files: Vec<InputFile>) -> Result<(Vec<InputFile>, SourceFiles), String> {
    let mut sources = SourceFiles::default();
    let mut rest = Vec::with_capacity(files.len());
    for file in files {
        let lower = file.path.to_ascii_lowercase();
        let (jar, zip) = (lower.ends_with(".jar"), lower.ends_with(".zip"));
        if is_java(&file.path) {
            let text = JsFuture::from(file.blob.text()).await.map_err(describe);
            let text = text.map_err(|e| format!("could not read {}: {e}", file.path))?;
            sources.add(&file.path, &text.as_string().unwrap_or_default());
        } else if (jar || zip) && file.size() <= MAX_SOURCE_ARCHIVE {
            let bytes = JsFuture::from(file.blob.array_buffer())
                .await
                .map_err(describe);
            let bytes = bytes.map_err(|e| format!("could not read {}: {e}", file.path))?;
            let bytes = js_sys::Uint8Array::new(&bytes).to_vec();
            let found = sources.add_archive(&file.path, &bytes);
            if !found.only_sources {
                rest.push(file);
            }
        } else {
            rest.push(file);
        }
    }
    Ok((rest, sources))
}
