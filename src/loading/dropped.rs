//! Files and folders dropped on the page.
//!
//! A drop's entries must be taken while the drop event runs (the browser
//! empties the `DataTransfer` afterwards); folders are then walked
//! asynchronously through the `webkitGetAsEntry` file-system entries, keeping
//! each file's path relative to what was dropped. Drops without entries
//! (synthetic ones, or browsers without the API) fall back to the plain file
//! list, where paths are bare names.

use super::picked::relative_path;
use super::InputFile;
use crate::browser::describe;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{DataTransfer, File, FileSystemDirectoryEntry, FileSystemEntry, FileSystemFileEntry};

/// What a drop carried, captured during the event.
pub struct Dropped {
    entries: Vec<FileSystemEntry>,
    files: Vec<File>,
}

impl Dropped {
    /// Takes the entries (and, as a fallback, the files) out of a drop.
    pub fn capture(data: &DataTransfer) -> Dropped {
        let items = data.items();
        let entries = (0..items.length())
            .filter_map(|i| items.get(i))
            .filter(|item| item.kind() == "file")
            .filter_map(|item| item.webkit_get_as_entry().ok().flatten())
            .collect();
        let files = data
            .files()
            .map(|list| (0..list.length()).filter_map(|i| list.get(i)).collect())
            .unwrap_or_default();
        Dropped { entries, files }
    }

    /// Every file dropped, folders walked recursively.
    pub async fn collect(self) -> Result<Vec<InputFile>, String> {
        if self.entries.is_empty() {
            return Ok(self
                .files
                .into_iter()
                .map(|file| InputFile {
                    path: relative_path(&file),
                    blob: file.into(),
                })
                .collect());
        }
        let mut out = Vec::new();
        let mut todo = self.entries;
        while let Some(entry) = todo.pop() {
            let path = entry.full_path().trim_start_matches('/').to_owned();
            if entry.is_directory() {
                let dir: FileSystemDirectoryEntry = entry.unchecked_into();
                todo.extend(
                    read_dir(&dir)
                        .await
                        .map_err(|e| format!("could not read folder {path}: {e}"))?,
                );
            } else if entry.is_file() {
                let entry: FileSystemFileEntry = entry.unchecked_into();
                let file = file_of(&entry)
                    .await
                    .map_err(|e| format!("could not read {path}: {e}"))?;
                out.push(InputFile {
                    path,
                    blob: file.into(),
                });
            }
        }
        Ok(out)
    }
}

/// All entries of a folder: `readEntries` hands them out in batches until it
/// returns an empty one.
async fn read_dir(dir: &FileSystemDirectoryEntry) -> Result<Vec<FileSystemEntry>, String> {
    let reader = dir.create_reader();
    let mut all = Vec::new();
    loop {
        let promise = js_sys::Promise::new(&mut |resolve, reject| {
            if let Err(e) = reader.read_entries_with_callback_and_callback(&resolve, &reject) {
                let _ = reject.call1(&JsValue::NULL, &e);
            }
        });
        let batch: js_sys::Array = JsFuture::from(promise)
            .await
            .map_err(describe)?
            .unchecked_into();
        if batch.length() == 0 {
            return Ok(all);
        }
        all.extend(batch.iter().map(JsCast::unchecked_into::<FileSystemEntry>));
    }
}

async fn file_of(entry: &FileSystemFileEntry) -> Result<File, String> {
    let promise = js_sys::Promise::new(&mut |resolve, reject| {
        entry.file_with_callback_and_callback(&resolve, &reject)
    });
    Ok(JsFuture::from(promise)
        .await
        .map_err(describe)?
        .unchecked_into())
}
