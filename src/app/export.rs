//! "Export PNG" and "Export SVG" of the view on screen: PNG copies the
//! view's canvas (timeline, flame graph, the sandwich's callees); SVG writes
//! the flame graph (or the sandwich's callees) at its current zoom with
//! `views::svg`, or the timeline's window with `views::timeline_svg`. The file is handed to the browser as a download; nothing
//! leaves the page.

use crate::chart::ChartModel;
use crate::components::aggregate::{cache, weight_format};
use crate::state::Loaded;
use crate::views::svg::flame_svg;
use crate::views::timeline_svg::TimelineSvg;
use crate::views::{View, ViewState};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Element, HtmlAnchorElement, HtmlCanvasElement};

thread_local! {
    /// The timeline's lanes and window as last painted, for its SVG export.
    static CHART: std::cell::RefCell<Option<ChartModel>> = const { std::cell::RefCell::new(None) };
}

/// Keeps the timeline's state as painted, for [`svg`].
pub fn remember_chart(model: &ChartModel) {
    CHART.with_borrow_mut(|c| match c {
        Some(c) => c.clone_from(model),
        None => *c = Some(model.clone()),
    });
}

/// The canvas that shows `view`.
fn canvas_id(view: View) -> Option<&'static str> {
    match view {
        View::Timeline => Some("flamechart"),
        View::FlameGraph => Some("flamegraph"),
        View::Sandwich => Some("sandwich-callees"),
        View::Diff => Some("diff-flamegraph"),
        View::CallTree => None,
    }
}

fn element(id: &str) -> Option<Element> {
    web_sys::window()?.document()?.get_element_by_id(id)
}

/// The node a flame graph canvas is zoomed into (0: the root).
fn zoom_of(canvas: &Element) -> u32 {
    canvas
        .get_attribute("data-zoom")
        .and_then(|z| z.parse().ok())
        .unwrap_or(0)
}

/// The SVG of the open flame graph (or sandwich callees) at its zoom.
pub fn svg(loaded: &Loaded, state: &ViewState) -> Result<String, String> {
    let id = match state.view {
        View::FlameGraph => "flamegraph",
        View::Sandwich => "sandwich-callees",
        View::Timeline => return timeline_svg(loaded),
        View::CallTree => return Err("the call tree is a table: no SVG".to_owned()),
        View::Diff => return diff_svg(loaded, state),
    };
    let canvas = element(id).ok_or("the view has not been drawn yet")?;
    let zoom = zoom_of(&canvas);
    let tree = if state.view == View::FlameGraph {
        cache::top_down(loaded, state.source, state.range)
    } else {
        let function = state
            .function
            .as_deref()
            .and_then(|f| cache::function_id(loaded, f))
            .ok_or("pick a function first")?;
        cache::sandwich_of(loaded, state.source, state.range, function).1
    };
    let width = f64::from(canvas.client_width()).max(200.0);
    let format = weight_format(loaded, state.source);
    Ok(flame_svg(
        &tree,
        zoom,
        &loaded.trace.strings,
        width,
        crate::browser::prefers_dark(),
        &|v| format.emit(v),
        None,
    ))
}

/// The differential flame graph at its zoom, widths by the side on screen,
/// coloured by the change in self time as on screen.
fn diff_svg(loaded: &Loaded, state: &ViewState) -> Result<String, String> {
    let compare = crate::js_diff::comparison().ok_or("open a trace to compare with first")?;
    let outcome = crate::components::aggregate::diff::diff_data(loaded, &compare, state.source);
    let data = outcome.as_ref().as_ref().map_err(Clone::clone)?;
    let canvas = element("diff-flamegraph").ok_or("the view has not been drawn yet")?;
    let zoom = zoom_of(&canvas);
    let base_side = element("diff-view")
        .and_then(|v| v.get_attribute("data-side"))
        .is_some_and(|side| side == "base");
    let tree = if base_side { &data.base } else { &data.new };
    let width = f64::from(canvas.client_width()).max(200.0);
    let dark = crate::browser::prefers_dark();
    let format = weight_format(loaded, state.source);
    Ok(flame_svg(
        tree,
        zoom,
        &data.strings,
        width,
        dark,
        &|v| format.emit(v),
        Some(&data.fills[usize::from(dark)]),
    ))
}

/// The timeline's window as painted last, as SVG.
fn timeline_svg(loaded: &Loaded) -> Result<String, String> {
    let titles: Vec<String> = (0..loaded.trace.threads.len())
        .map(|t| loaded.thread_title(t))
        .collect();
    CHART.with_borrow(|chart| {
        let model = chart
            .as_ref()
            .ok_or("the timeline has not been drawn yet")?;
        Ok(TimelineSvg {
            trace: &loaded.trace,
            index: &loaded.index,
            origin: loaded.origin,
            titles: &titles,
            model,
            dark: crate::browser::prefers_dark(),
        }
        .render())
    })
}

/// Downloads the open view as `png` or `svg`.
pub fn download(loaded: &Loaded, state: &ViewState, kind: &str) -> Result<(), String> {
    let name = format!("flamedrop-{}.{kind}", state.view.name());
    let url = if kind == "svg" {
        let text = svg(loaded, state)?;
        format!(
            "data:image/svg+xml;charset=utf-8,{}",
            String::from(js_sys::encode_uri_component(&text))
        )
    } else {
        let id = canvas_id(state.view)
            .ok_or("the call tree is a table: nothing to export as an image")?;
        let canvas: HtmlCanvasElement = element(id)
            .and_then(|e| e.dyn_into().ok())
            .ok_or("the view has not been drawn yet")?;
        canvas.to_data_url().map_err(crate::browser::describe)?
    };
    save(&name, &url).map_err(crate::browser::describe)
}

fn save(name: &str, url: &str) -> Result<(), JsValue> {
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or_else(|| JsValue::from_str("no document"))?;
    let a: HtmlAnchorElement = document.create_element("a")?.dyn_into()?;
    a.set_href(url);
    a.set_download(name);
    a.click();
    Ok(())
}
