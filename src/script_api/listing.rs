//! The listing's part of `window.flamedrop` (installed by
//! `script_api::install`):
//!
//! - `listing(from, count)`: the text of rows `from .. from + count` of the
//!   listing of the trace on screen (narrowed by the stack, if any) with the
//!   Listing view's columns, as an array of strings without newlines — the
//!   lines `flamedrop replay` prints, header and footer lines left out
//!   (`from` defaults to 0, `count` to every row left). `null` without a
//!   trace or when the trace has no listing (`listingStatus().error` says
//!   why). If the view has not built the listing yet, it is built at once;
//! - `listingLength()`: the number of rows, or `null` as above;
//! - `listingStatus()`: `{rows, error, building, timing, header, footer}`:
//!   rows of the listing kept with the trace (`null` while none is built), why the
//!   trace has none (`ListingError`'s text, or `null`), whether the view is
//!   building one, and how the view's last build went (`{build_ms, busy_ms,
//!   slices, longest_slice_ms}` or `null`: built in `slices` slices with
//!   pauses between them, `build_ms` from the first to the last,
//!   `busy_ms` the main thread's part), and its header and footer lines
//!   (what `flamedrop replay` prints before and after the rows).

use super::{set, to_js, Published, Snapshot};
use crate::view_model::loaded::Built;
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// Adds the functions to the `window.flamedrop` object.
pub fn install_into(api: &js_sys::Object, published: &Published) {
    let p = published.clone();
    let listing: Closure<dyn Fn(JsValue, JsValue) -> JsValue> =
        Closure::new(move |from: JsValue, count: JsValue| rows(&p.borrow(), from, count));
    set(api, "listing", listing);
    let p = published.clone();
    let length: Closure<dyn Fn() -> JsValue> = Closure::new(move || {
        let snapshot = p.borrow();
        match built(&snapshot).as_deref() {
            Some(Ok(listing)) => JsValue::from_f64(listing.len() as f64),
            _ => JsValue::NULL,
        }
    });
    set(api, "listingLength", length);
    let p = published.clone();
    let status: Closure<dyn Fn() -> JsValue> = Closure::new(move || status(&p.borrow()));
    set(api, "listingStatus", status);
}

/// The listing of the trace on screen with the view's options, built now
/// if it is not yet.
fn built(snapshot: &Snapshot) -> Option<Built> {
    let loaded = snapshot.loaded.as_ref()?;
    Some(loaded.listing_now(&snapshot.views.listing))
}

fn rows(snapshot: &Snapshot, from: JsValue, count: JsValue) -> JsValue {
    let (Some(loaded), Some(built)) = (snapshot.loaded.as_ref(), built(snapshot)) else {
        return JsValue::NULL;
    };
    let Ok(listing) = built.as_ref() else {
        return JsValue::NULL;
    };
    let len = listing.len();
    let from = from.as_f64().map_or(0, |f| f.max(0.0) as usize).min(len);
    let count = count.as_f64().map_or(len - from, |c| c.max(0.0) as usize);
    let out = js_sys::Array::new();
    let mut line = String::new();
    for row in from..from.saturating_add(count).min(len) {
        line.clear();
        listing.write_row(&loaded.trace, row, &mut line);
        out.push(&JsValue::from_str(&line));
    }
    out.into()
}

fn status(snapshot: &Snapshot) -> JsValue {
    #[derive(Serialize)]
    struct Status<'a> {
        rows: Option<usize>,
        error: Option<String>,
        building: bool,
        timing: Option<&'a crate::view_model::listing::ListingTiming>,
        header: Vec<String>,
        footer: Vec<String>,
    }
    let kept = snapshot
        .loaded
        .as_ref()
        .and_then(|l| l.listing(&snapshot.views.listing));
    let listing = kept.as_deref().and_then(|b| b.as_ref().ok());
    let trace = snapshot.loaded.as_ref().map(|l| &l.trace);
    let (header, footer) = match (listing, trace) {
        (Some(listing), Some(trace)) => (listing.header(trace), listing.footer(trace)),
        _ => (Vec::new(), Vec::new()),
    };
    to_js(&Status {
        rows: listing.map(|l| l.len()),
        error: kept
            .as_deref()
            .and_then(|b| b.as_ref().err())
            .map(|e| e.to_string()),
        building: snapshot.listing_building,
        timing: snapshot.listing_timing.as_ref(),
        header,
        footer,
    })
}
