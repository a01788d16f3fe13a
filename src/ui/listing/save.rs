//! "Copy" and "Save" of the Listing view: the whole listing of the trace on
//! screen — header, rows, footer, each line ended by a newline — exactly as
//! `flamedrop replay` prints it (`Listing::write_to`'s bytes). Save writes
//! the text in slices into a list of chunks, so a 20 M-row listing never
//! becomes one string, and hands the browser a `Blob` of them.

use crate::browser::{self, pace::yield_to_browser};
use crate::view_model::loaded::Built;
use crate::view_model::Loaded;
use std::rc::Rc;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Blob, BlobPropertyBag, HtmlAnchorElement, Url};
use yew::Callback;

/// Bytes of text in one chunk of the saved file.
const CHUNK_BYTES: usize = 4 << 20;
/// Work between two pauses while saving, in ms.
const SLICE_MS: f64 = 15.0;

/// Puts the listing's text on the clipboard; says what it did.
pub fn copy(loaded: &Loaded, built: &Built) -> String {
    let Ok(listing) = built.as_ref() else {
        return "nothing to copy".to_owned();
    };
    let text = listing.text(&loaded.trace);
    let Some(window) = web_sys::window() else {
        return "no window".to_owned();
    };
    let _ = window.navigator().clipboard().write_text(&text);
    format!("copied {} rows", listing.len())
}

/// Saves the listing as `flamedrop-listing.txt`, in slices; `on_note`
/// hears how it ended.
pub fn save(loaded: &Rc<Loaded>, built: Built, on_note: Callback<String>) {
    let loaded = loaded.clone();
    wasm_bindgen_futures::spawn_local(async move {
        let note = match chunks(&loaded, &built).await {
            Ok(rows) => match download(&rows.0) {
                Ok(()) => format!("saved {} rows", rows.1),
                Err(e) => format!("could not save: {}", browser::describe(e)),
            },
            Err(why) => why,
        };
        on_note.emit(note);
    });
}

/// The listing's text as chunks (a JS array of strings), and its rows.
async fn chunks(loaded: &Loaded, built: &Built) -> Result<(js_sys::Array, usize), String> {
    let Ok(listing) = built.as_ref() else {
        return Err("nothing to save".to_owned());
    };
    let trace = &loaded.trace;
    let parts = js_sys::Array::new();
    let mut chunk = String::with_capacity(CHUNK_BYTES + 4096);
    for line in listing.header(trace) {
        chunk.push_str(&line);
        chunk.push('\n');
    }
    let mut slice = browser::now();
    for row in 0..listing.len() {
        listing.write_row(trace, row, &mut chunk);
        chunk.push('\n');
        if chunk.len() >= CHUNK_BYTES {
            parts.push(&JsValue::from_str(&chunk));
            chunk.clear();
        }
        if row % 4096 == 0 && browser::now() - slice > SLICE_MS {
            yield_to_browser().await;
            slice = browser::now();
        }
    }
    for line in listing.footer(trace) {
        chunk.push_str(&line);
        chunk.push('\n');
    }
    parts.push(&JsValue::from_str(&chunk));
    Ok((parts, listing.len()))
}

/// Hands the chunks to the browser as a download.
fn download(parts: &js_sys::Array) -> Result<(), JsValue> {
    let options = BlobPropertyBag::new();
    options.set_type("text/plain;charset=utf-8");
    let blob = Blob::new_with_str_sequence_and_options(parts, &options)?;
    let url = Url::create_object_url_with_blob(&blob)?;
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or_else(|| JsValue::from_str("no document"))?;
    let a: HtmlAnchorElement = document.create_element("a")?.dyn_into()?;
    a.set_href(&url);
    a.set_download("flamedrop-listing.txt");
    a.click();
    // The download has its own reference to the blob once it started.
    gloo::timers::callback::Timeout::new(60_000, move || {
        let _ = Url::revoke_object_url(&url);
    })
    .forget();
    Ok(())
}
