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
//!   in order (`worker read`, `worker feed`, … `page index`);
//!   `first_partial_ms` and `partial_draws_ms`: when the pictures of what
//!   was decoded so far were drawn while loading (`null` and `[]` when none was).
//!
//! - `view`, `state`, `search`, `calltree`, `sandwich`, `svg`: see
//!   [`views`]; `diff`: see [`diff`]; `narrow`, `narrowing`: see [`narrow`]
//!   (`report()` and every view read the trace as narrowed); `listing`,
//!   `listingLength`, `listingStatus`: see [`listing`]; `memory`: see
//!   [`memory`]; `components`: see [`components`]; `isolated`: see
//!   [`isolation`]; `values`, `event`, `selectEvent`, `step`: see
//!   [`values`].
//!
//! Every function reads one [`Snapshot`] that the app writes (the app holds
//! the [`Published`] handle and is its only writer); commands (`view`,
//! `search`, `sandwich`) go back to the app as view changes.

pub mod components;
pub mod diff;
pub mod isolation;
pub mod listing;
pub mod memory;
pub mod narrow;
pub mod values;
pub mod views;

use crate::loading::slot::LoadCost;
use crate::render::colors::Colouring;
use crate::timeline::ChartModel;
use crate::view_model::highlight::Highlight;
use crate::view_model::{Compared, Loaded};
use crate::view_model::{ViewChange, ViewState};
use crate::wire::protocol::Phases;
use serde::Serialize;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use yew::Callback;
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
    /// The first picture of what was decoded so far drawn, while loading
    /// (`loading::preview`).
    pub first_partial_ms: Option<f64>,
    /// Every such picture drawn, in order.
    pub partial_draws_ms: Vec<f64>,
    #[serde(skip)]
    started: f64,
}

/// What `window.flamedrop` reads.
#[derive(Default)]
pub struct Snapshot {
    /// The trace on screen.
    pub loaded: Option<Rc<Loaded>>,
    /// The comparison, while one is open.
    pub comparison: Option<Rc<Compared>>,
    pub views: ViewState,
    /// Where commands go.
    pub commands: Option<Callback<ViewChange>>,
    /// Where `narrow(text)` sends its stack.
    pub narrow_command: Option<narrow::NarrowCommand>,
    /// What `narrowing()` reports.
    pub narrowing: narrow::NarrowReport,
    pub highlight: Option<Rc<Highlight>>,
    /// The page's theme and how calls are coloured.
    pub colouring: Colouring,
    pub timings: Timings,
    lanes: Vec<LaneBox>,
    counters: Vec<CounterBox>,
    /// The timeline's lanes and window as last painted, for its SVG.
    pub chart: Option<ChartModel>,
    /// How the last listing build went.
    pub listing_timing: Option<crate::view_model::listing::ListingTiming>,
    /// The Listing view is building a listing.
    pub listing_building: bool,
    /// The selected event (SELogger) and the Values view's location.
    pub event: Option<u32>,
    pub values_at: Option<flamedrop_core::analysis::values::Location>,
    /// Where `selectEvent`, `step` and `values` send their commands.
    pub event_command: Option<Callback<values::EventCommand>>,
}

/// The app's handle on the snapshot; the script functions keep a clone.
pub type Published = Rc<RefCell<Snapshot>>;

/// Installs `window.flamedrop` (once), reading `published`.
pub fn install(published: &Published) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let api = js_sys::Object::new();
    type Getter = fn(&Snapshot) -> JsValue;
    let getters: [(&str, Getter); 7] = [
        ("tables", tables),
        ("highlight", highlight),
        ("report", report),
        ("lanes", |p| to_js(&p.lanes)),
        ("counters", |p| to_js(&p.counters)),
        ("theme", theme),
        ("timings", |p| to_js(&p.timings)),
    ];
    for (name, getter) in getters {
        let published = published.clone();
        let function: Closure<dyn Fn() -> JsValue> =
            Closure::new(move || getter(&published.borrow()));
        set(&api, name, function);
    }
    views::install_into(&api, published);
    diff::install_into(&api, published);
    narrow::install_into(&api, published);
    listing::install_into(&api, published);
    memory::install_into(&api, published);
    components::install_into(&api, published);
    isolation::install_into(&api);
    values::install_into(&api, published);
    let _ = js_sys::Reflect::set(&window, &JsValue::from_str("flamedrop"), &api);
}

/// Adds `function` to `api` as `name`; it lives as long as the page.
fn set<F: ?Sized + wasm_bindgen::closure::WasmClosure>(
    api: &js_sys::Object,
    name: &str,
    function: Closure<F>,
) {
    let _ = js_sys::Reflect::set(api, &JsValue::from_str(name), function.as_ref());
    function.forget();
}

fn report(p: &Snapshot) -> JsValue {
    match &p.loaded {
        Some(loaded) => to_js(&flamedrop_core::analysis::report(&loaded.trace)),
        None => JsValue::NULL,
    }
}

fn tables(p: &Snapshot) -> JsValue {
    match &p.loaded {
        Some(loaded) => to_js(&loaded.trace.tables),
        None => JsValue::NULL,
    }
}

fn highlight(p: &Snapshot) -> JsValue {
    #[derive(Serialize)]
    struct Chosen<'a> {
        key: &'a str,
        value: &'a str,
        spans: usize,
    }
    match &p.highlight {
        Some(h) => to_js(&Chosen {
            key: &h.field.key,
            value: &h.field.value,
            spans: h.count(),
        }),
        None => JsValue::NULL,
    }
}

fn theme(p: &Snapshot) -> JsValue {
    #[derive(Serialize)]
    struct Theme {
        background: &'static str,
    }
    let background = crate::render::colors::theme(p.colouring.dark).background;
    to_js(&Theme { background })
}

/// Plain JS objects and numbers (no `Map`, no `BigInt`), like JSON.
fn to_js<T: Serialize>(value: &T) -> JsValue {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap_or(JsValue::NULL)
}

impl Snapshot {
    /// A load started now: forget the previous trace's timings.
    pub fn load_started(&mut self) {
        self.timings = Timings {
            started: crate::browser::now(),
            ..Timings::default()
        };
    }

    /// The trace on screen (or none), and what its load cost.
    pub fn set_loaded(&mut self, loaded: Option<Rc<Loaded>>, cost: Option<LoadCost>) {
        if loaded.is_some() {
            let t = &mut self.timings;
            t.decode_ms = Some(crate::browser::now() - t.started);
            t.worker_ms = cost.as_ref().map(|c| c.worker_ms);
            t.unpack_ms = cost.as_ref().map(|c| c.unpack_ms);
            t.index_ms = cost.as_ref().map(|c| c.index_ms);
            t.parts = cost.as_ref().map(|c| c.parts);
            t.phases = cost.map(|c| c.phases);
        } else {
            self.lanes.clear();
            self.counters.clear();
        }
        self.loaded = loaded;
    }

    /// The timeline's lanes and counter tracks as last painted.
    pub fn set_lanes(&mut self, lanes: Vec<LaneBox>, counters: Vec<CounterBox>) {
        self.lanes = lanes;
        self.counters = counters;
    }

    /// The timeline painted spans: the first time since the load started,
    /// marks `flamedrop-first-draw` for performance tools and records when.
    pub fn first_draw(&mut self) {
        if self.timings.first_draw_ms.is_none() && self.loaded.is_some() {
            self.timings.first_draw_ms = Some(crate::browser::now() - self.timings.started);
            if let Some(perf) = web_sys::window().and_then(|w| w.performance()) {
                let _ = perf.mark("flamedrop-first-draw");
            }
        }
    }

    /// A partial picture's timeline painted spans (while loading).
    pub fn partial_draw(&mut self) {
        let at = crate::browser::now() - self.timings.started;
        self.timings.first_partial_ms.get_or_insert(at);
        self.timings.partial_draws_ms.push(at);
    }

    /// Keeps the timeline's window as painted, for its SVG.
    pub fn remember_chart(&mut self, model: &ChartModel) {
        match &mut self.chart {
            Some(c) => c.clone_from(model),
            None => self.chart = Some(model.clone()),
        }
    }
}
