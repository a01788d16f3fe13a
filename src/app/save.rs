//! "Save analysis": the trace on screen as decoded (the model, without the
//! counter tracks the page adds itself) and the screen it is shown on (the
//! URL fragment's view state, the selection, the side panel's tab, the
//! flame graphs' zoom, the colouring) as one `.flamedrop` file
//! (`flamedrop_core::saved`), downloaded as `<trace name>.flamedrop`.
//!
//! Reopening: the worker reads the file (`worker::saved`), the page takes
//! the saved view state as the trace is shown ([`reopen_views`]), and puts
//! back what belongs to the trace on screen — selection, tab, zoom, the
//! timeline's window (`PageState::timeline_window`) — once
//! the saved narrowing (if any) is applied ([`restore`]).

use super::page::PageState;
use crate::browser;
use crate::timeline::{ChartModel, SpanRef};
use crate::ui::sidebar::Tab;
use crate::view_model::saved_screen::file_name;
use crate::view_model::ViewState;
use flamedrop_core::analysis::read_events::read_counters;
use flamedrop_core::saved::{self, Header};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Blob, BlobPropertyBag, HtmlAnchorElement, Url};

impl super::App {
    /// `Msg::SaveAnalysis`: downloads the analysis on screen; nothing to
    /// re-render.
    pub(super) fn save_analysis(&self) -> bool {
        let chart = self.published.borrow().chart.clone();
        if let Err(e) = save_analysis(&self.page, chart.as_ref()) {
            gloo::console::warn!(format!("flamedrop: save analysis: {e}"));
        }
        false
    }
}

/// Downloads the analysis on screen as a `.flamedrop` file; `chart` is the
/// timeline as last drawn.
fn save_analysis(page: &PageState, chart: Option<&ChartModel>) -> Result<(), String> {
    let Some(base) = &page.base else {
        return Ok(());
    };
    let header = Header {
        made_by: format!("flamedrop {}", env!("CARGO_PKG_VERSION")),
        label: base.label.clone(),
        fragment: page.views.to_fragment(),
        selected: page.selected.map(|s| (s.thread as u32, s.span)),
        event: page.event,
        tab: tab_name(page.tab).to_owned(),
        zoom: page.views.zoom.clone(),
        timeline: chart.map(|c| (c.view.start, c.view.end, c.scroll)),
        colour_by_group: page.colouring.by_group,
    };
    let trace = &base.trace;
    // The read-trigger tracks were appended by the page after decoding
    // (`loading::unpack`); it adds them again when the file is reopened.
    let decoded = trace.counters.len() - read_counters(trace).len().min(trace.counters.len());
    let bytes = saved::encode_first_counters(trace, &header, decoded);
    download(&file_name(&base.label), &bytes).map_err(browser::describe)
}

/// The view state a reopened file was saved with, in place of the URL's,
/// before the trace is shown; what belongs to the shown trace waits for
/// [`restore`].
pub fn reopen_views(page: &mut PageState, header: &Header) {
    page.views = ViewState::from_fragment(&header.fragment);
    browser::set_fragment(&page.views.to_fragment());
    page.colouring.by_group = header.colour_by_group;
    page.reopened = Some(header.clone());
}

/// Puts back the selection, tab and zoom of a reopened file on the trace
/// on screen (once it is narrowed as saved); nothing otherwise.
pub fn restore(page: &mut PageState) {
    let (Some(header), Some(shown)) = (page.reopened.take(), &page.trace) else {
        return;
    };
    let threads = &shown.trace.threads;
    page.selected = header
        .selected
        .map(|(thread, span)| SpanRef {
            thread: thread as usize,
            span,
        })
        .filter(|s| {
            threads
                .get(s.thread)
                .is_some_and(|t| (s.span as usize) < t.spans.len())
        });
    page.event = header.event;
    page.tab = tab_named(&header.tab);
    page.views.zoom = header.zoom;
    page.timeline_window = header.timeline;
}

/// The side panel's tab as the file names it.
fn tab_name(tab: Tab) -> &'static str {
    match tab {
        Tab::Summary => "summary",
        Tab::Details => "details",
        Tab::Tables => "tables",
    }
}

/// The tab a file names (the summary for a name this page does not know).
fn tab_named(name: &str) -> Tab {
    match name {
        "details" => Tab::Details,
        "tables" => Tab::Tables,
        _ => Tab::Summary,
    }
}

/// Hands `bytes` to the browser as a download called `name`.
fn download(name: &str, bytes: &[u8]) -> Result<(), JsValue> {
    let array = js_sys::Uint8Array::new_with_length(bytes.len() as u32);
    array.copy_from(bytes);
    let parts = js_sys::Array::of1(&array);
    let options = BlobPropertyBag::new();
    options.set_type("application/octet-stream");
    let blob = Blob::new_with_u8_array_sequence_and_options(&parts, &options)?;
    let url = Url::create_object_url_with_blob(&blob)?;
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or_else(|| JsValue::from_str("no document"))?;
    let link: HtmlAnchorElement = document.create_element("a")?.dyn_into()?;
    link.set_href(&url);
    link.set_download(name);
    link.click();
    // The download holds its own reference to the blob once started.
    gloo::timers::callback::Timeout::new(60_000, move || {
        let _ = Url::revoke_object_url(&url);
    })
    .forget();
    Ok(())
}
