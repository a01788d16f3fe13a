//! The chart's markup: the toolbar with the lanes list, the minimap, the
//! canvas with its tooltip, and the note shown when there is no timeline.

use super::lanes_list::LanesList;
use super::{FlameChart, Msg};
use crate::render::minimap;
use crate::ui::span_info;
use crate::ui::tooltip::Tooltip;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement, PointerEvent};
use yew::prelude::*;

impl FlameChart {
    /// The toolbar: the "Lanes" button and, when open, the lanes list.
    pub(super) fn toolbar(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let layout = &ctx.props().lanes;
        let hidden_count = self
            .all_lanes
            .iter()
            .filter(|(k, _)| layout.is_hidden(k))
            .count();
        let lanes_label = if hidden_count == 0 {
            "Lanes".to_owned()
        } else {
            format!("Lanes ({hidden_count} hidden)")
        };
        let open = self.lanes_open;
        html! {
            <div class="toolbar timeline-toolbar">
                <button type="button" id="lanes-button" class="button" aria-haspopup="dialog"
                    aria-expanded={open.to_string()} aria-controls="lanes-list"
                    title="Show, hide and reorder lanes"
                    onclick={link.callback(move |_| Msg::LanesOpen(!open))}>{ lanes_label }</button>
                if open {
                    <LanesList all={self.all_lanes.clone()} layout={layout.clone()}
                        on_change={ctx.props().on_lanes.clone()}
                        on_close={link.callback(|_| Msg::LanesOpen(false))} />
                }
            </div>
        }
    }

    /// The minimap of the whole trace (hidden when it would be empty).
    pub(super) fn minimap_canvas(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        html! {
            <canvas id="minimap" class={classes!("minimap", minimap::is_empty(&ctx.props().loaded.trace).then_some("hidden"))} ref={self.minimap.clone()}
                aria-label="Minimap of the whole trace; drag to move the visible window"
                onpointerdown={link.callback(|e: PointerEvent| {
                    if let Some(t) = e.target().and_then(|t| t.dyn_into::<Element>().ok()) {
                        let _ = t.set_pointer_capture(e.pointer_id());
                    }
                    Msg::Minimap(f64::from(e.offset_x()), Some(true))
                })}
                onpointermove={link.callback(|e: PointerEvent| Msg::Minimap(f64::from(e.offset_x()), Some(false)))}
                onpointerup={link.callback(|e: PointerEvent| Msg::Minimap(f64::from(e.offset_x()), None))} />
        }
    }

    /// The chart's canvas, its tooltip and hint.
    pub(super) fn chart(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let at = |e: &MouseEvent| (f64::from(e.offset_x()), f64::from(e.offset_y()));
        let client = |e: &MouseEvent| (f64::from(e.client_x()), f64::from(e.client_y()));
        let down = link.batch_callback(move |e: PointerEvent| {
            (e.button() == 0).then(|| {
                let (x, y) = at(&e);
                Msg::Down {
                    x,
                    y,
                    pointer: e.pointer_id(),
                    client: client(&e),
                }
            })
        });
        let moved = link.callback(move |e: PointerEvent| {
            let (x, y) = at(&e);
            Msg::Move {
                x,
                y,
                client: client(&e),
            }
        });
        let menu = link.callback(move |e: MouseEvent| {
            e.prevent_default();
            let (x, y) = at(&e);
            Msg::Menu {
                x,
                y,
                client: client(&e),
            }
        });
        let up = link.callback(move |e: PointerEvent| {
            let (x, y) = at(&e);
            Msg::Up { x, y }
        });
        let leave = link.callback(|_: PointerEvent| Msg::Leave);
        let dbl = link.callback(move |e: MouseEvent| {
            let (x, y) = at(&e);
            Msg::DoubleClick { x, y }
        });
        let tooltip = self
            .hover
            .filter(|_| !self.gesture.is_pressed())
            .and_then(|h| span_info::hit(&ctx.props().loaded, h));
        let empty = no_timeline(&ctx.props().loaded.trace);
        html! {
            <div class="chart" ref={self.container.clone()}>
                <canvas id="flamechart" ref={self.canvas.clone()} tabindex="0"
                    aria-label="Flame chart: one lane per thread, time runs left to right"
                    onpointerdown={down} onpointermove={moved} onpointerup={up}
                    onpointerleave={leave} ondblclick={dbl} oncontextmenu={menu} />
                { self.menu_markup(ctx) }
                if let Some(info) = tooltip {
                    <Tooltip info={info} node={self.tooltip.clone()} />
                }
                if let Some(why) = empty {
                    <p class="note timeline-empty" id="no-timeline" role="status">{ why }</p>
                }
                <div class="chart-hint">
                    { "wheel or W/S: zoom · drag or A/D: pan · shift+wheel or ↑/↓: scroll · drag on the ruler: range · drag a lane header: move it · 0: reset · click: details · ?: help" }
                </div>
            </div>
        }
    }

    /// Puts the tooltip beside the pointer, flipped to stay inside the chart.
    pub(super) fn place_tooltip(&self) {
        let (Some(tip), Some(container), Some((x, y))) = (
            self.tooltip.cast::<HtmlElement>(),
            self.container.cast::<HtmlElement>(),
            self.pointer,
        ) else {
            return;
        };
        let (tw, th) = (
            f64::from(tip.offset_width()),
            f64::from(tip.offset_height()),
        );
        let (cw, ch) = (
            f64::from(container.client_width()),
            f64::from(container.client_height()),
        );
        let left = if x + 16.0 + tw > cw {
            x - tw - 12.0
        } else {
            x + 16.0
        };
        let top = if y + 18.0 + th > ch {
            y - th - 10.0
        } else {
            y + 18.0
        };
        let style = tip.style();
        let _ = style.set_property("left", &format!("{}px", left.max(0.0).round()));
        let _ = style.set_property("top", &format!("{}px", top.max(0.0).round()));
    }
}

/// Why the timeline is empty, when no thread has a call to place in time:
/// the decoder's own reason (its `timeline` metadata) when it gave one.
fn no_timeline(trace: &flamedrop_core::Trace) -> Option<String> {
    if trace.threads.iter().any(|t| !t.spans.is_empty()) {
        return None;
    }
    let reason = trace
        .metadata
        .iter()
        .find(|(key, _)| key == "timeline")
        .map_or("this trace holds no calls to place in time", |(_, why)| {
            why.trim_start_matches("no timeline: ")
        });
    Some(format!(
        "No timeline — {reason}. The Flame graph, Sandwich and Call tree views and the Tables tab show what it holds."
    ))
}
