//! The lane chart of the Files, Network and Threads views: a canvas as wide
//! as its box and as tall as its rows, its legend, and the pointer: a drag
//! sets the ruler's range, a click picks the call under it (or its row).

use crate::render::activity::{paint, ActivityFrame};
use crate::view_model::activity::{
    mark_at, row_at, row_top, state_label, states_of, Axis, LABEL_WIDTH,
};
use crate::view_model::Loaded;
use flamedrop_core::analysis::activity::Activity;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use web_sys::{Element, HtmlCanvasElement, ResizeObserver};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub loaded: Rc<Loaded>,
    pub activity: Rc<Activity>,
    /// The canvas' id (`files-chart`, `network-chart`, `threads-chart`).
    pub id: AttrValue,
    pub range: Option<(i64, i64)>,
    pub on_range: Callback<Option<(i64, i64)>>,
    pub dark: bool,
    pub highlighted: Rc<Vec<bool>>,
    pub picked: Option<usize>,
    pub on_pick: Callback<Option<usize>>,
    pub on_row: Callback<Option<u32>>,
}

pub enum Msg {
    Resize,
    Down(f64),
    Up(f64, f64),
}

pub struct Chart {
    boxed: NodeRef,
    canvas: NodeRef,
    width: f64,
    /// Where a press began (x), while the button is down.
    down: Option<f64>,
    observer: Option<(ResizeObserver, Closure<dyn FnMut()>)>,
}

impl Component for Chart {
    type Message = Msg;
    type Properties = Props;

    fn create(_ctx: &Context<Self>) -> Self {
        Chart {
            boxed: NodeRef::default(),
            canvas: NodeRef::default(),
            width: 800.0,
            down: None,
            observer: None,
        }
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        let props = ctx.props();
        let axis = Axis::of(&props.loaded, props.range, self.width);
        match msg {
            Msg::Resize => {
                self.measure();
                return true;
            }
            Msg::Down(x) => self.down = Some(x),
            Msg::Up(x, y) => {
                let Some(start) = self.down.take() else {
                    return false;
                };
                if (x - start).abs() > 4.0 && start.max(x) > LABEL_WIDTH {
                    let (a, b) = (axis.time_at(start.min(x)), axis.time_at(start.max(x)));
                    props.on_range.emit(Some((a, b)));
                } else if let Some(mark) = mark_at(&props.activity, &axis, x, y) {
                    props.on_pick.emit(Some(mark));
                } else {
                    props.on_pick.emit(None);
                    props.on_row.emit(row_at(&props.activity, y));
                }
            }
        }
        false
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let props = ctx.props();
        let kind = props.activity.kind;
        let link = ctx.link();
        let onmousedown = link.callback(|e: MouseEvent| Msg::Down(f64::from(e.offset_x())));
        let onmouseup = link
            .callback(|e: MouseEvent| Msg::Up(f64::from(e.offset_x()), f64::from(e.offset_y())));
        let clear = props.on_range.reform(|_: MouseEvent| None);
        html! {
            <div class="activity-chart-box">
                <div class="activity-legend" aria-label="Legend">
                    { for states_of(kind).iter().map(|s| html! {
                        <span class="legend-item"><span class={classes!("swatch", format!("state-{}", s.name()))}></span>{ state_label(kind, *s) }</span>
                    }) }
                    <span class="legend-item"><span class="swatch tick"></span>{ "call" }</span>
                    <span class="legend-item"><span class="swatch failed"></span>{ "failed call" }</span>
                    <span class="legend-item"><span class="swatch still-open"></span>{ "still open at the end" }</span>
                    if props.range.is_some() {
                        <button type="button" class="button small" id="activity-clear-range" onclick={clear}>{ "Whole trace" }</button>
                    }
                </div>
                <div class="activity-chart" ref={self.boxed.clone()}>
                    <canvas id={props.id.clone()} ref={self.canvas.clone()} role="img"
                        aria-label={format!("{} rows over time", props.activity.rows.len())}
                        {onmousedown} {onmouseup}></canvas>
                </div>
            </div>
        }
    }

    fn rendered(&mut self, ctx: &Context<Self>, first_render: bool) {
        if first_render {
            self.observe(ctx);
            self.measure();
        }
        self.paint(ctx);
    }

    fn destroy(&mut self, _ctx: &Context<Self>) {
        if let Some((observer, _)) = &self.observer {
            observer.disconnect();
        }
    }
}

impl Chart {
    fn measure(&mut self) {
        if let Some(el) = self.boxed.cast::<Element>() {
            self.width = f64::from(el.client_width()).max(LABEL_WIDTH + 100.0);
        }
    }

    fn paint(&self, ctx: &Context<Self>) {
        let props = ctx.props();
        let Some(canvas) = self.canvas.cast::<HtmlCanvasElement>() else {
            return;
        };
        let height = row_top(props.activity.rows.len()) + 4.0;
        let dpr = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio());
        let (w, h) = (
            (self.width * dpr).round() as u32,
            (height * dpr).round() as u32,
        );
        if canvas.width() != w.max(1) || canvas.height() != h.max(1) {
            canvas.set_width(w.max(1));
            canvas.set_height(h.max(1));
        }
        let style = canvas.style();
        let _ = style.set_property("width", &format!("{}px", self.width));
        let _ = style.set_property("height", &format!("{height}px"));
        let Some(g) = crate::browser::context_2d(&canvas) else {
            return;
        };
        let _ = g.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0);
        paint(
            &g,
            &ActivityFrame {
                loaded: &props.loaded,
                activity: &props.activity,
                axis: Axis::of(&props.loaded, props.range, self.width),
                height,
                dark: props.dark,
                highlighted: &props.highlighted,
                picked: props.picked,
            },
        );
    }

    fn observe(&mut self, ctx: &Context<Self>) {
        let Some(el) = self.boxed.cast::<Element>() else {
            return;
        };
        let link = ctx.link().clone();
        let callback: Closure<dyn FnMut()> = Closure::new(move || link.send_message(Msg::Resize));
        if let Ok(observer) = ResizeObserver::new(callback.as_ref().unchecked_ref()) {
            observer.observe(&el);
            self.observer = Some((observer, callback));
        }
    }
}
