//! Files chosen with `input#open-files` or `input#open-folder`.

use super::InputFile;
use wasm_bindgen::JsValue;
use web_sys::{File, FileList};

/// The files of an input. Folder picks carry `webkitRelativePath`
/// (`uftrace.data/info`); plain picks only have names.
pub fn files_of(list: &FileList) -> Vec<InputFile> {
    (0..list.length())
        .filter_map(|i| list.get(i))
        .map(|file| InputFile {
            path: relative_path(&file),
            blob: file.into(),
        })
        .collect()
}

/// `webkitRelativePath` when the browser set it, else the file's name.
pub fn relative_path(file: &File) -> String {
    js_sys::Reflect::get(file, &JsValue::from_str("webkitRelativePath"))
        .ok()
        .and_then(|v| v.as_string())
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| file.name())
}
