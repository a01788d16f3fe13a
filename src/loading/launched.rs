//! Files the operating system hands to the installed app ("Open with
//! flamedrop", a double click on a `.rtrace`): the manifest's
//! `file_handlers` route them here through the Launch Queue
//! (`window.launchQueue.setConsumer`). The consumer is set once, when the
//! page starts; with `launch_handler.client_mode = "focus-existing"` a later
//! launch comes to the same page and replaces the trace on screen.
//!
//! The launch gives file *handles*; each is read with `getFile()` and the
//! files then take the dropped files' way (a flat list of [`InputFile`]s
//! named by their file names).

use super::InputFile;
use crate::browser::describe;
use js_sys::{Array, Function, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::File;
use yew::Callback;

/// The file handles of one launch, read when the load starts.
pub struct Launched {
    handles: Vec<JsValue>,
}

impl Launched {
    /// Every launched file, read from its handle.
    pub async fn collect(self) -> Result<Vec<InputFile>, String> {
        let mut out = Vec::with_capacity(self.handles.len());
        for handle in self.handles {
            let file = file_of(&handle).await?;
            out.push(InputFile {
                path: file.name(),
                blob: file.into(),
            });
        }
        Ok(out)
    }
}

/// Hands every launch that carries files to `on_launch`, for as long as the
/// page lives. Does nothing where the browser has no Launch Queue.
pub fn listen(on_launch: Callback<Launched>) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Some(queue) = property(&window, "launchQueue").filter(|q| q.is_object()) else {
        return;
    };
    let Some(set_consumer) =
        property(&queue, "setConsumer").and_then(|f| f.dyn_into::<Function>().ok())
    else {
        return;
    };
    let consumer = Closure::<dyn FnMut(JsValue)>::new(move |params: JsValue| {
        let handles: Vec<JsValue> = property(&params, "files")
            .filter(Array::is_array)
            .map(|files| Array::from(&files).iter().collect())
            .unwrap_or_default();
        // A launch without files (the app opened from its icon) changes nothing.
        if !handles.is_empty() {
            on_launch.emit(Launched { handles });
        }
    });
    if let Err(e) = set_consumer.call1(&queue, consumer.as_ref()) {
        gloo::console::warn!(format!(
            "flamedrop: launchQueue.setConsumer failed: {}",
            describe(e)
        ));
        return;
    }
    // The consumer must outlive this call: the page keeps it until it closes.
    consumer.forget();
}

fn property(target: &JsValue, name: &str) -> Option<JsValue> {
    Reflect::get(target, &JsValue::from_str(name))
        .ok()
        .filter(|v| !v.is_undefined() && !v.is_null())
}

/// `handle.getFile()`: the `File` behind a `FileSystemFileHandle`.
async fn file_of(handle: &JsValue) -> Result<File, String> {
    let name = property(handle, "name")
        .and_then(|n| n.as_string())
        .unwrap_or_else(|| "a launched file".to_owned());
    let get_file = property(handle, "getFile")
        .and_then(|f| f.dyn_into::<Function>().ok())
        .ok_or_else(|| format!("could not read {name}: the launch gave no file handle"))?;
    let promise: Promise = get_file
        .call0(handle)
        .map_err(|e| format!("could not read {name}: {}", describe(e)))?
        .dyn_into()
        .map_err(|_| format!("could not read {name}: getFile() gave no promise"))?;
    JsFuture::from(promise)
        .await
        .map_err(|e| format!("could not read {name}: {}", describe(e)))?
        .dyn_into::<File>()
        .map_err(|_| format!("could not read {name}: getFile() gave no file"))
}
