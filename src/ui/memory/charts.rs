//! The Memory view's canvases: the live chart (`memory-chart`, what "Export
//! PNG" copies) and the two histograms. Each measures its box, asks
//! `view_model::memory` for its picture and has `render::memory` paint it;
//! a window resize repaints. A click on the live chart lists that moment.

use super::Summary;
use crate::render::memory::paint;
use crate::view_model::memory::chart::{live_at_time, live_picture, ChartGeometry};
use crate::view_model::memory::histograms::{lifetime_chart, size_chart};
use crate::view_model::memory::shapes::Picture;
use crate::view_model::memory::shapes::{count_label, size_label};
use crate::view_model::memory::{axis_span, MemoryState};
use crate::view_model::text;
use crate::view_model::{Loaded, ViewChange};
use flamedrop_core::analysis::memory::LivePoint;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use web_sys::{Element, HtmlCanvasElement, ResizeObserver};
use yew::prelude::*;

/// A counter bumped each time `node`'s box changes size (a
/// `ResizeObserver`: the first layout, the sidebar, the window), so its
/// canvas repaints at its size.
#[hook]
fn use_resize(node: &NodeRef) -> u32 {
    let count = use_state(|| 0u32);
    {
        let (count, node) = (count.clone(), node.clone());
        use_effect_with((), move |_| {
            let bumps = std::rc::Rc::new(std::cell::Cell::new(0u32));
            let callback: Closure<dyn FnMut()> = Closure::new(move || {
                bumps.set(bumps.get().wrapping_add(1));
                count.set(bumps.get());
            });
            let observer = node.cast::<Element>().and_then(|el| {
                let observer = ResizeObserver::new(callback.as_ref().unchecked_ref()).ok()?;
                observer.observe(&el);
                Some(observer)
            });
            move || {
                if let Some(o) = observer {
                    o.disconnect();
                }
                drop(callback);
            }
        });
    }
    *count
}

/// The CSS size of `canvas`, once laid out.
fn size_of(canvas: &HtmlCanvasElement) -> Option<(f64, f64)> {
    let (w, h) = (
        f64::from(canvas.client_width()),
        f64::from(canvas.client_height()),
    );
    (w > 0.0 && h > 0.0).then_some((w, h))
}

fn dpr() -> f64 {
    web_sys::window().map_or(1.0, |w| w.device_pixel_ratio())
}

#[derive(Properties, PartialEq)]
pub struct ChartProps {
    pub loaded: Rc<Loaded>,
    pub summary: Rc<Summary>,
    pub memory: MemoryState,
    pub range: Option<(i64, i64)>,
    pub dark: bool,
    pub on_change: Callback<ViewChange>,
}

/// The live bytes and blocks over time, the peak, the rates.
#[function_component(LiveChart)]
pub fn live(props: &ChartProps) -> Html {
    let canvas = use_node_ref();
    let geometry = use_mut_ref(|| None::<ChartGeometry>);
    let resized = use_resize(&canvas);
    {
        let (canvas, geometry, loaded, summary) = (
            canvas.clone(),
            geometry.clone(),
            props.loaded.clone(),
            props.summary.clone(),
        );
        let (range, dark, moment) = (props.range, props.dark, props.memory.moment);
        use_effect_with((summary.clone(), range, dark, resized, moment), move |_| {
            let Some(c) = canvas.cast::<HtmlCanvasElement>() else {
                return;
            };
            let (Some((width, height)), Ok(s)) = (size_of(&c), summary.as_ref()) else {
                return;
            };
            let picture = live_picture(&loaded, s, moment, range, width, height);
            paint(&c, &picture, dark, dpr());
            let (t0, t1) = axis_span(&loaded.trace, range);
            *geometry.borrow_mut() = Some(ChartGeometry {
                width,
                height,
                t0,
                t1,
            });
        });
    }
    let onclick = on_chart_click(geometry.clone(), props);
    let hover = use_state(|| None::<LivePoint>);
    let onmousemove = {
        let (geometry, summary, hover) = (geometry.clone(), props.summary.clone(), hover.clone());
        Callback::from(move |e: MouseEvent| {
            let (Some(g), Ok(s)) = (*geometry.borrow(), summary.as_ref()) else {
                return;
            };
            let at = g.time_at(f64::from(e.offset_x()));
            hover.set(at.map(|t| live_at_time(&s.series.points, t)));
        })
    };
    let onmouseleave = {
        let hover = hover.clone();
        Callback::from(move |_: MouseEvent| hover.set(None))
    };
    html! {
        <div class="memory-chart-box">
            <div class="memory-readout" id="memory-readout" aria-live="polite">{ readout(&props.loaded, &props.summary, *hover) }</div>
            <canvas id="memory-chart" class="memory-chart" ref={canvas} {onclick} {onmousemove} {onmouseleave}
                aria-label="Live memory over time: click a time (or the peak marker) to list what was live then" />
        </div>
    }
}

/// A click lists that moment (the peak near its marker) and makes its live
/// blocks the flame graph's source.
fn on_chart_click(
    geometry: Rc<RefCell<Option<ChartGeometry>>>,
    props: &ChartProps,
) -> Callback<MouseEvent> {
    let (geometry, summary, memory, on_change, loaded) = (
        geometry,
        props.summary.clone(),
        props.memory.clone(),
        props.on_change.clone(),
        props.loaded.clone(),
    );
    Callback::from(move |e: MouseEvent| {
        let (Some(g), Ok(s)) = (*geometry.borrow(), summary.as_ref()) else {
            return;
        };
        let Some(moment) = g.moment_at(f64::from(e.offset_x()), s.series.peak.time) else {
            return;
        };
        let mut next = memory.clone();
        next.moment = moment;
        let source = super::groups::moment_source(&loaded.trace, &next);
        on_change.emit(ViewChange::Source(source));
        on_change.emit(ViewChange::Memory(next));
    })
}

/// The line over the chart: what is live under the pointer, or how to use it.
fn readout(loaded: &Loaded, summary: &Summary, hover: Option<LivePoint>) -> String {
    match (hover, summary) {
        (Some(p), Ok(s)) => format!(
            "at {}: {} live in {} blocks — click to list them",
            text::duration(p.time - loaded.origin, loaded.unit()),
            size_label(p.bytes as f64, &s.unit),
            count_label(p.blocks)
        ),
        _ => "Point at the chart to read it; click a time (or the peak's marker) to list what was live then.".to_owned(),
    }
}

#[derive(Properties, PartialEq)]
pub struct HistogramProps {
    pub loaded: Rc<Loaded>,
    pub summary: Rc<Summary>,
    pub memory: MemoryState,
    pub dark: bool,
    pub on_change: Callback<ViewChange>,
}

/// Paints `picture(width, height)` on `canvas` when the deps change.
fn paint_sized(canvas: &NodeRef, dark: bool, picture: impl FnOnce(f64, f64) -> Picture) {
    if let Some(c) = canvas.cast::<HtmlCanvasElement>() {
        if let Some((w, h)) = size_of(&c) {
            paint(&c, &picture(w, h), dark, dpr());
        }
    }
}

/// The size histogram (by count or bytes) and the lifetime histogram.
#[function_component(Histograms)]
pub fn histograms(props: &HistogramProps) -> Html {
    let (sizes, lifetimes) = (use_node_ref(), use_node_ref());
    let resized = use_resize(&sizes);
    {
        let (sizes, lifetimes, summary, loaded) = (
            sizes.clone(),
            lifetimes.clone(),
            props.summary.clone(),
            props.loaded.clone(),
        );
        let (dark, by_bytes) = (props.dark, props.memory.sizes_by_bytes);
        use_effect_with((summary.clone(), dark, by_bytes, resized), move |_| {
            let Ok(s) = summary.as_ref() else { return };
            paint_sized(&sizes, dark, |w, h| {
                size_chart(&s.sizes, by_bytes, &s.unit, w, h)
            });
            paint_sized(&lifetimes, dark, |w, h| {
                lifetime_chart(&s.lifetimes, loaded.unit(), w, h)
            });
        });
    }
    let toggle = |by_bytes: bool, id: &'static str, label: &'static str| {
        let pressed = props.memory.sizes_by_bytes == by_bytes;
        let onclick = {
            let (memory, on_change) = (props.memory.clone(), props.on_change.clone());
            Callback::from(move |_: MouseEvent| {
                let mut next = memory.clone();
                next.sizes_by_bytes = by_bytes;
                on_change.emit(ViewChange::Memory(next));
            })
        };
        html! { <button type="button" {id} class={classes!("seg", pressed.then_some("selected"))}
        aria-pressed={pressed.to_string()} {onclick}>{ label }</button> }
    };
    html! {
        <div class="memory-histograms">
            <div class="memory-histogram-head">
                <strong>{ "Sizes" }</strong>
                <span class="segmented" role="group" aria-label="Size histogram by">
                    { toggle(false, "memory-sizes-count", "Count") }
                    { toggle(true, "memory-sizes-bytes", "Bytes") }
                </span>
            </div>
            <canvas id="memory-sizes" class="memory-histogram" ref={sizes}
                aria-label="Block sizes in power-of-two buckets: freed and still live" />
            <div class="memory-histogram-head"><strong>{ "Lifetimes" }</strong></div>
            <canvas id="memory-lifetimes" class="memory-histogram" ref={lifetimes}
                aria-label="Lifetimes of the freed blocks in power-of-two buckets" />
        </div>
    }
}
