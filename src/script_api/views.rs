//! The views' part of `window.flamedrop` (installed by `script_api::install`):
//!
//! - `view(name)`: opens a view (`timeline`, `flamegraph`, `sandwich`,
//!   `calltree`, or `diff` while a comparison is open; `diff()` itself is in
//!   `diff.rs`); false for an unknown name;
//! - `state()`: `{view, source, function, search, range, inverted, fragment}`;
//! - `search(q)`: sets the search box to `q` (text, or `/regex/`) and returns
//!   `{functions, calls}` it matches (`{error}` for a bad expression);
//! - `calltree({inverted, source, limit})`: the call tree of the current (or
//!   given) source and range as rows in pre-order, children heaviest first:
//!   `[{name, depth, total, self, calls}]` (depth 1 = top level; in the
//!   bottom-up tree depth 1 are the functions, depth 2 their callers);
//! - `sandwich(name)`: `{function, callers, callees}` where callers and
//!   callees are the direct ones, `[{name, total, self, calls}]`; also shows
//!   the function in the sandwich view. `null` for an unknown function.
//! - `svg()`: the open timeline window, flame graph (or sandwich callees) as
//!   SVG text, what "Export SVG" saves; `null` in the call tree.
//!
//! Aggregates come from the trees kept with the trace, as the views'.

use super::{set, Published, Snapshot};
use crate::render::export::{svg as view_svg, SvgInputs};
use crate::view_model::Loaded;
use crate::view_model::{SourceKey, View, ViewChange};
use flamedrop_core::analysis::search::{count, Matcher};
use flamedrop_core::analysis::CallTree;
use serde::Serialize;
use wasm_bindgen::prelude::*;

fn send(p: &Published, change: ViewChange) {
    let commands = p.borrow().commands.clone();
    if let Some(c) = commands {
        c.emit(change);
    }
}

/// Adds the functions to the `window.flamedrop` object.
pub fn install_into(api: &js_sys::Object, published: &Published) {
    type Fun = fn(&Published, JsValue) -> JsValue;
    let functions: [(&str, Fun); 6] = [
        ("svg", |p, _| svg(&p.borrow())),
        ("view", view),
        ("state", |p, _| state(&p.borrow())),
        ("search", search),
        ("calltree", |p, options| calltree(&p.borrow(), options)),
        ("sandwich", sandwich),
    ];
    for (name, function) in functions {
        let published = published.clone();
        let function: Closure<dyn Fn(JsValue) -> JsValue> =
            Closure::new(move |arg| function(&published, arg));
        set(api, name, function);
    }
}

fn to_js<T: Serialize>(value: &T) -> JsValue {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap_or(JsValue::NULL)
}

fn view(p: &Published, name: JsValue) -> JsValue {
    match name.as_string().as_deref().and_then(View::parse) {
        Some(v) => {
            send(p, ViewChange::View(v));
            JsValue::TRUE
        }
        None => JsValue::FALSE,
    }
}

fn state(p: &Snapshot) -> JsValue {
    #[derive(Serialize)]
    struct State {
        view: &'static str,
        source: String,
        function: Option<String>,
        search: String,
        range: Option<(i64, i64)>,
        inverted: bool,
        fragment: String,
    }
    let st = &p.views;
    to_js(&State {
        view: st.view.name(),
        source: st.source.name(),
        function: st.function.clone(),
        search: st.search.clone(),
        range: st.range,
        inverted: st.inverted,
        fragment: st.to_fragment(),
    })
}

fn search(p: &Published, query: JsValue) -> JsValue {
    let query = query.as_string().unwrap_or_default();
    send(p, ViewChange::Search(query.clone()));
    let Some(loaded) = p.borrow().loaded.clone() else {
        return JsValue::NULL;
    };
    #[derive(Serialize)]
    struct Error {
        error: String,
    }
    match Matcher::parse(&query) {
        Ok(Some(m)) => to_js(&count(&loaded.trace, &m.mark(&loaded.trace.strings))),
        Ok(None) => to_js(&flamedrop_core::analysis::search::MatchCount::default()),
        Err(error) => to_js(&Error { error }),
    }
}

#[derive(Serialize)]
struct Row {
    name: String,
    depth: u32,
    total: i64,
    #[serde(rename = "self")]
    self_time: i64,
    calls: u64,
}

fn calltree(p: &Snapshot, options: JsValue) -> JsValue {
    let get = |key: &str| js_sys::Reflect::get(&options, &JsValue::from_str(key)).ok();
    let inverted = get("inverted").and_then(|v| v.as_bool());
    let source = get("source").and_then(|v| v.as_string());
    let limit = get("limit")
        .and_then(|v| v.as_f64())
        .map_or(100_000, |l| l as usize);
    let (Some(loaded), state) = (&p.loaded, &p.views) else {
        return JsValue::NULL;
    };
    let source = source
        .as_deref()
        .and_then(SourceKey::parse)
        .unwrap_or(state.source);
    let tree = loaded.tree(source, state.range, inverted.unwrap_or(state.inverted));
    to_js(&rows(loaded, &tree, limit))
}

/// The tree's nodes in pre-order with their depth.
fn rows(loaded: &Loaded, tree: &CallTree, limit: usize) -> Vec<Row> {
    let mut out = Vec::new();
    let mut todo: Vec<(u32, u32)> = tree.root().children.iter().rev().map(|&c| (c, 1)).collect();
    while let Some((at, depth)) = todo.pop() {
        if out.len() >= limit {
            break;
        }
        let Some(n) = tree.get(at) else { continue };
        out.push(Row {
            name: loaded.trace.str(n.name).to_owned(),
            depth,
            total: n.total,
            self_time: n.self_time,
            calls: n.calls,
        });
        todo.extend(n.children.iter().rev().map(|&c| (c, depth + 1)));
    }
    out
}

fn sandwich(p: &Published, name: JsValue) -> JsValue {
    let Some(name) = name.as_string() else {
        return JsValue::NULL;
    };
    let (loaded, state) = {
        let snapshot = p.borrow();
        let Some(loaded) = snapshot.loaded.clone() else {
            return JsValue::NULL;
        };
        (loaded, snapshot.views.clone())
    };
    let Some(id) = loaded.function_id(&name) else {
        return JsValue::NULL;
    };
    send(p, ViewChange::Function(Some(name.clone())));
    let (callers, callees) = loaded.sandwich(state.source, state.range, id);
    let direct = |tree: &CallTree| -> Vec<Row> {
        rows(&loaded, tree, usize::MAX)
            .into_iter()
            .filter(|r| r.depth == 2)
            .collect()
    };
    #[derive(Serialize)]
    struct Sandwich {
        function: String,
        callers: Vec<Row>,
        callees: Vec<Row>,
    }
    to_js(&Sandwich {
        function: name,
        callers: direct(&callers),
        callees: direct(&callees),
    })
}

fn svg(p: &Snapshot) -> JsValue {
    let Some(loaded) = &p.loaded else {
        return JsValue::NULL;
    };
    let inputs = SvgInputs {
        loaded,
        views: &p.views,
        comparison: p.comparison.as_deref(),
        chart: p.chart.as_ref(),
        colouring: p.colouring,
        width: crate::browser::client_width(p.views.view.canvas_id()),
    };
    view_svg(&inputs).map_or(JsValue::NULL, |s| JsValue::from_str(&s))
}
