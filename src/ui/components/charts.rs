//! The Components view's canvases: the caller → callee flows and the
//! drill-down icicle (click a node to zoom into it, the top row to zoom
//! out; hovering names a node's time, waiting and calls below it). Each
//! paints at its box's width whenever its data changes.

use crate::render::components::{paint_flows, paint_icicle, ICICLE_ROW};
use crate::view_model::components::{breadcrumb, flows, icicle, icicle_hit, IcicleRect};
use flamedrop_core::analysis::components::{CallEdge, ComponentsReport};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use web_sys::{CanvasRenderingContext2d, Element, HtmlCanvasElement, ResizeObserver};
use yew::prelude::*;

/// Sizes `canvas` to `width` × `height` CSS px and returns its context,
/// scaled to CSS px.
fn prepare(
    canvas: &HtmlCanvasElement,
    width: f64,
    height: f64,
) -> Option<CanvasRenderingContext2d> {
    let dpr = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio());
    canvas.set_width(((width * dpr).round() as u32).max(1));
    canvas.set_height(((height * dpr).round() as u32).max(1));
    let style = canvas.style();
    let _ = style.set_property("width", &format!("{width}px"));
    let _ = style.set_property("height", &format!("{height}px"));
    let g = crate::browser::context_2d(canvas)?;
    let _ = g.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0);
    Some(g)
}

/// The width of `holder`'s box in CSS px, kept up to date by a
/// ResizeObserver (0 until it has reported).
#[hook]
fn use_width(holder: NodeRef) -> f64 {
    let width = use_state(|| 0.0);
    {
        let width = width.clone();
        use_effect_with((), move |_| {
            let mut kept = None;
            if let Some(element) = holder.cast::<Element>() {
                let target = element.clone();
                let report: Closure<dyn FnMut()> =
                    Closure::new(move || width.set(f64::from(target.client_width())));
                if let Ok(observer) = ResizeObserver::new(report.as_ref().unchecked_ref()) {
                    observer.observe(&element);
                    kept = Some((observer, report));
                }
            }
            move || {
                if let Some((observer, _)) = kept {
                    observer.disconnect();
                }
            }
        });
    }
    (*width).max(200.0)
}

#[derive(Properties, PartialEq)]
pub struct FlowsProps {
    pub matrix: Rc<Vec<CallEdge>>,
    pub dark: bool,
    pub format: Callback<i64, String>,
}

/// Height of the flow diagram (CSS px).
const FLOWS_HEIGHT: f64 = 220.0;

#[function_component(FlowsChart)]
pub fn flows_chart(props: &FlowsProps) -> Html {
    let (canvas, holder) = (use_node_ref(), use_node_ref());
    let width = use_width(holder.clone());
    {
        let canvas = canvas.clone();
        let format = props.format.clone();
        let deps = (props.matrix.clone(), props.dark, width);
        use_effect_with(deps, move |(matrix, dark, width)| {
            let layout = flows(matrix, FLOWS_HEIGHT - 8.0);
            // Without flows between libraries, one line says so.
            let height = if layout.bands.is_empty() {
                32.0
            } else {
                FLOWS_HEIGHT
            };
            if let Some(g) = canvas
                .cast::<HtmlCanvasElement>()
                .and_then(|c| prepare(&c, *width, height))
            {
                let _ = g.translate(0.0, 4.0);
                paint_flows(&g, &layout, (*width, height), *dark, &|t| format.emit(t));
            }
        });
    }
    html! {
        <div class="components-canvas" ref={holder}>
            <canvas id="components-flows" ref={canvas} role="img"
                aria-label="Calls from caller libraries (left) into callee libraries (right), bands as wide as their time" />
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct IcicleProps {
    pub report: Rc<ComponentsReport>,
    /// Child indices from the root of the node shown at full width.
    pub zoom: Vec<usize>,
    pub on_zoom: Callback<Vec<usize>>,
    pub dark: bool,
    pub format: Callback<i64, String>,
}

#[function_component(Icicle)]
pub fn icicle_chart(props: &IcicleProps) -> Html {
    let (canvas, holder) = (use_node_ref(), use_node_ref());
    let width = use_width(holder.clone());
    let hover = use_state(|| None::<usize>);
    let rects = {
        let report = props.report.clone();
        use_memo(
            (Rc::as_ptr(&props.report) as usize, props.zoom.clone()),
            move |(_, zoom)| icicle(&report.drill, zoom),
        )
    };
    let rows = rects.iter().map(|r| r.depth).max().map_or(1, |d| d + 1);
    let height = f64::from(rows) * ICICLE_ROW + 2.0;
    {
        let canvas = canvas.clone();
        let rects = rects.clone();
        let deps = (rects.clone(), *hover, props.dark, width);
        use_effect_with(deps, move |(_, hover, dark, width)| {
            if let Some(g) = canvas
                .cast::<HtmlCanvasElement>()
                .and_then(|c| prepare(&c, *width, height))
            {
                paint_icicle(&g, &rects, *width, height, *hover, *dark);
            }
        });
    }
    let at = {
        let canvas = canvas.clone();
        let rects = rects.clone();
        move |e: &MouseEvent| -> Option<usize> {
            let c = canvas.cast::<HtmlCanvasElement>()?;
            let fx = f64::from(e.offset_x()) / f64::from(c.client_width().max(1));
            let depth = (f64::from(e.offset_y()) / ICICLE_ROW).floor() as u16;
            let hit = icicle_hit(&rects, fx, depth)?;
            rects.iter().position(|r| std::ptr::eq(r, hit))
        }
    };
    let on_move = {
        let (hover, at) = (hover.clone(), at.clone());
        Callback::from(move |e: MouseEvent| hover.set(at(&e)))
    };
    let on_leave = {
        let hover = hover.clone();
        Callback::from(move |_| hover.set(None))
    };
    let on_click = {
        let (rects, zoom, on_zoom) = (rects.clone(), props.zoom.clone(), props.on_zoom.clone());
        Callback::from(move |e: MouseEvent| {
            let Some(r) = at(&e).and_then(|i| rects.get(i)) else {
                return;
            };
            if r.depth == 0 {
                on_zoom.emit(zoom[..zoom.len().saturating_sub(1)].to_vec());
            } else {
                on_zoom.emit(r.path.clone());
            }
        })
    };
    let info = hover_info(hover.and_then(|i| rects.get(i)), &props.format);
    html! {
        <div class="components-drill">
            { crumbs(props) }
            <div class="components-canvas" ref={holder}>
                <canvas id="components-chart" ref={canvas} role="img" aria-label="Drill-down icicle"
                    onmousemove={on_move} onmouseleave={on_leave} onclick={on_click} />
            </div>
            <p class="components-hover" id="components-hover">{ info }</p>
        </div>
    }
}

/// The line under the icicle: the hovered node's figures, or how to use it.
fn hover_info(node: Option<&IcicleRect>, f: &Callback<i64, String>) -> String {
    match node {
        Some(r) => format!(
            "{} — {} (waiting {}), {} call(s)",
            r.name,
            f.emit(r.time),
            f.emit(r.wait),
            r.calls
        ),
        None => "Click a node to zoom into it, the top row to zoom out.".to_owned(),
    }
}

/// The zoomed node's ancestors, each a button zooming to it.
fn crumbs(props: &IcicleProps) -> Html {
    let names = breadcrumb(&props.report.drill, &props.zoom);
    html! {
        <nav class="components-crumbs" aria-label="Zoom">
            { for names.iter().enumerate().map(|(i, name)| {
                let on_zoom = props.on_zoom.clone();
                let path = props.zoom[..i.min(props.zoom.len())].to_vec();
                html! { <button type="button" class="crumb" onclick={Callback::from(move |_| on_zoom.emit(path.clone()))}>{ name }</button> }
            }) }
        </nav>
    }
}
