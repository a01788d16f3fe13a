//! `window.flamedrop`: the page's interface for scripts and end-to-end tests.
//!
//! - `report()`: the same object as `flamedrop report --json` for the trace
//!   on screen (`null` before one is loaded);
//! - `lanes()`: `[{thread_id, top, height}]`, one per lane shown, in drawing
//!   order (hidden lanes left out, moved lanes where they were moved), in CSS
//!   px relative to `canvas#flamechart`;
//! - `counters()`: `[{name, unit, top, header, height}]`, one per counter
//!   track shown below the lanes, in CSS px relative to `canvas#flamechart`
//!   (`header`: the title row's height; the bars are drawn below it);
//! - `theme()`: `{background: "#rrggbb"}`, the canvas background;
//! - `tables()`: the format's tables (`[{id, title, columns: [{name,
//!   numeric}], rows, row_highlight: [{key, value} | null], note}]`);
//! - `highlight()`: `{key, value, spans}` of the table row chosen to
//!   highlight (`spans`: how many calls carry it over all lanes), or `null`;
//! - `timings()`: `{first_draw_ms, decode_ms, worker_ms, unpack_ms,
//!   index_ms, parts}` of the last load (`null`s until known): first draw and
//!   decode are measured from the moment the files were handed over, worker
//!   and unpack are their parts spent in the (slowest) worker and on the
//!   page's main thread, index the part of unpacking spent indexing the
//!   rows; `parts` is how many workers' answers were merged; `phases`:
//!   `[[name, ms]]`, where the slowest worker's time and the page's went,
//!   in order (`worker read`, `worker feed`, … `page index`).
//!
//! The app and the chart publish into one thread-local record;
//! the functions read it when called.

use crate::highlight::Highlight;
use crate::state::Loaded;
use crate::worker::protocol::Phases;
use serde::Serialize;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// One lane as `lanes()` reports it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LaneBox {
    pub thread_id: String,
    pub top: f64,
    pub height: f64,
}

/// One counter track as `counters()` reports it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CounterBox {
    pub name: String,
    pub unit: String,
    pub top: f64,
    pub header: f64,
    pub height: f64,
}

/// Load timings, in ms since the load started.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Timings {
    pub decode_ms: Option<f64>,
    pub first_draw_ms: Option<f64>,
    /// Time spent inside the worker (reading, decoding, encoding).
    pub worker_ms: Option<f64>,
    /// Time the page's main thread spent unpacking and indexing the trace.
    pub unpack_ms: Option<f64>,
    /// Of `unpack_ms`, the time spent indexing each thread's rows.
    pub index_ms: Option<f64>,
    /// Workers whose parts of the trace were merged (1 unless split).
    pub parts: Option<u32>,
    /// Phases of the slowest worker and of the page, in order.
    pub phases: Option<Phases>,
    #[serde(skip)]
    started: f64,
}

#[derive(Default)]
struct Published {
    loaded: Option<Rc<Loaded>>,
    lanes: Vec<LaneBox>,
    counters: Vec<CounterBox>,
    background: &'static str,
    timings: Timings,
    highlight: Option<Rc<Highlight>>,
}

thread_local! {
    static PUBLISHED: RefCell<Published> = RefCell::new(Published::default());
}

/// Installs `window.flamedrop` (once).
pub fn install() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let api = js_sys::Object::new();
    type Getter = Closure<dyn Fn() -> JsValue>;
    let functions: [(&str, Getter); 7] = [
        ("tables", Closure::new(tables)),
        ("highlight", Closure::new(highlight)),
        ("report", Closure::new(report)),
        (
            "lanes",
            Closure::new(|| to_js(&PUBLISHED.with_borrow(|p| p.lanes.clone()))),
        ),
        (
            "counters",
            Closure::new(|| to_js(&PUBLISHED.with_borrow(|p| p.counters.clone()))),
        ),
        ("theme", Closure::new(theme)),
        (
            "timings",
            Closure::new(|| to_js(&PUBLISHED.with_borrow(|p| p.timings.clone()))),
        ),
    ];
    for (name, function) in functions {
        let _ = js_sys::Reflect::set(&api, &JsValue::from_str(name), function.as_ref());
        // These live as long as the page.
        function.forget();
    }
    crate::js_views::install_into(&api);
    crate::js_diff::install_into(&api);
    let _ = js_sys::Reflect::set(&window, &JsValue::from_str("flamedrop"), &api);
}

/// The trace on screen, if any.
pub fn loaded() -> Option<Rc<Loaded>> {
    PUBLISHED.with_borrow(|p| p.loaded.clone())
}

fn report() -> JsValue {
    PUBLISHED.with_borrow(|p| match &p.loaded {
        Some(loaded) => to_js(&flamedrop_core::analysis::report(&loaded.trace)),
        None => JsValue::NULL,
    })
}

fn tables() -> JsValue {
    PUBLISHED.with_borrow(|p| match &p.loaded {
        Some(loaded) => to_js(&loaded.trace.tables),
        None => JsValue::NULL,
    })
}

fn highlight() -> JsValue {
    #[derive(Serialize)]
    struct Chosen<'a> {
        key: &'a str,
        value: &'a str,
        spans: usize,
    }
    PUBLISHED.with_borrow(|p| match &p.highlight {
        Some(h) => to_js(&Chosen {
            key: &h.field.key,
            value: &h.field.value,
            spans: h.count(),
        }),
        None => JsValue::NULL,
    })
}

/// The spans highlighted from a table row (or none).
pub fn set_highlight(highlight: Option<Rc<Highlight>>) {
    PUBLISHED.with_borrow_mut(|p| p.highlight = highlight);
}

fn theme() -> JsValue {
    #[derive(Serialize)]
    struct Theme {
        background: &'static str,
    }
    let background = PUBLISHED.with_borrow(|p| p.background);
    let background = if background.is_empty() {
        crate::canvas::colors::theme(crate::browser::prefers_dark()).background
    } else {
        background
    };
    to_js(&Theme { background })
}

/// Plain JS objects and numbers (no `Map`, no `BigInt`), like JSON.
fn to_js<T: Serialize>(value: &T) -> JsValue {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap_or(JsValue::NULL)
}

/// A load started now: forget the previous trace's timings.
pub fn load_started() {
    PUBLISHED.with_borrow_mut(|p| {
        p.timings = Timings {
            started: crate::browser::now(),
            ..Timings::default()
        };
    });
}

/// Where the time of a load went, as the app measured it.
#[derive(Clone, Debug, Default)]
pub struct LoadCost {
    pub worker_ms: f64,
    pub unpack_ms: f64,
    pub index_ms: f64,
    pub parts: u32,
    pub phases: Phases,
}

/// The trace on screen (or none).
pub fn set_loaded(loaded: Option<Rc<Loaded>>, cost: Option<LoadCost>) {
    PUBLISHED.with_borrow_mut(|p| {
        if loaded.is_some() {
            p.timings.decode_ms = Some(crate::browser::now() - p.timings.started);
            p.timings.worker_ms = cost.as_ref().map(|c| c.worker_ms);
            p.timings.unpack_ms = cost.as_ref().map(|c| c.unpack_ms);
            p.timings.index_ms = cost.as_ref().map(|c| c.index_ms);
            p.timings.parts = cost.as_ref().map(|c| c.parts);
            p.timings.phases = cost.map(|c| c.phases);
        }
        if loaded.is_none() {
            p.lanes.clear();
            p.counters.clear();
        }
        p.loaded = loaded;
    });
}

/// The chart's lanes and counter tracks as last painted, and its background.
pub fn set_lanes(lanes: Vec<LaneBox>, counters: Vec<CounterBox>, background: &'static str) {
    PUBLISHED.with_borrow_mut(|p| {
        p.lanes = lanes;
        p.counters = counters;
        p.background = background;
    });
}

/// The chart painted spans for the first time since the load started: marks
/// `flamedrop-first-draw` for performance tools and records the time.
pub fn first_draw() {
    PUBLISHED.with_borrow_mut(|p| {
        if p.timings.first_draw_ms.is_none() && p.loaded.is_some() {
            p.timings.first_draw_ms = Some(crate::browser::now() - p.timings.started);
            if let Some(perf) = web_sys::window().and_then(|w| w.performance()) {
                let _ = perf.mark("flamedrop-first-draw");
            }
        }
    });
}

/// True until the first frame with spans was painted for this load.
pub fn awaiting_first_draw() -> bool {
    PUBLISHED.with_borrow(|p| p.timings.first_draw_ms.is_none())
}
