//! The flame chart component: owns `canvas#flamechart`, turns pointer, wheel
//! and keyboard input into [`ChartModel`] changes, repaints on the next
//! animation frame, and shows the hover [`Tooltip`](super::tooltip::Tooltip).
//!
//! Painting happens outside Yew's rendering: a view change only schedules a
//! frame; Yew re-renders the component only when the hovered item changes
//! (to swap the tooltip's content).
//!
//! This file holds the lifecycle; the rest of the folder: `input` (raw
//! listeners), `pointer` (carrying out what the pure `timeline::gesture`
//! machine decides), `frame` (one animation frame: keys, hover, painting),
//! `markup` (the HTML), `lanes_list` (the lanes popover), `menu` (a span's
//! transforms menu, on right-click or long press) and `publish` (the chart's
//! reports to the rest of the page).

mod frame;
mod input;
mod lanes_list;
mod markup;
mod menu;
mod pointer;
pub mod publish;

use crate::render::colors::Colouring;
use crate::render::minimap::Minimap;
use crate::render::paint::Painter;
use crate::timeline::gesture::{Gesture, MinimapDrag};
use crate::timeline::keys::{HeldKeys, KeyAction, Motion};
use crate::timeline::lane_layout::lane_keys;
use crate::timeline::lane_layout::{LaneKey, LaneLayout};
use crate::timeline::{ChartModel, Hit, SpanRef, Wheel};
use crate::ui::context_menu::{LongPress, OpenMenu};
use crate::view_model::Loaded;
use flamedrop_core::analysis::transform::Step;
use gloo::events::EventListener;
use gloo::render::{request_animation_frame, AnimationFrame};
use publish::{OnReport, Publisher};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use web_sys::{HtmlElement, ResizeObserver};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub loaded: Rc<Loaded>,
    pub selected: Option<SpanRef>,
    pub on_select: Callback<Option<SpanRef>>,
    /// A request to zoom to a span; the number makes repeated requests distinct.
    pub focus: Option<(u32, SpanRef)>,
    /// Spans chosen in a table: drawn emphasised, the others dimmed.
    #[prop_or_default]
    pub highlight: Option<Rc<crate::view_model::highlight::Highlight>>,
    /// Another view is open: the chart stays mounted (keeping its zoom) but hidden.
    #[prop_or_default]
    pub hidden: bool,
    /// Per string id: matches the search (others are greyed).
    #[prop_or_default]
    pub marks: Option<Rc<Vec<bool>>>,
    /// The page's theme and how calls are coloured.
    pub colouring: Colouring,
    /// Where the chart's reports go (see `publish`).
    #[prop_or_default]
    pub on_report: OnReport,
    /// The time range the aggregated views are limited to (absolute times).
    #[prop_or_default]
    pub range: Option<(i64, i64)>,
    /// A range was selected by dragging along the ruler (`None`: a click cleared it).
    #[prop_or_default]
    pub on_range: Callback<Option<(i64, i64)>>,
    /// Lane order and hidden lanes (from the URL fragment).
    #[prop_or_default]
    pub lanes: LaneLayout,
    /// The user rearranged, hid or showed lanes.
    #[prop_or_default]
    pub on_lanes: Callback<LaneLayout>,
    /// A transform chosen in a span's menu.
    #[prop_or_default]
    pub on_step: Callback<Step>,
    /// The window to start from (start, end, scroll) instead of the whole
    /// trace: a reopened `.flamedrop` file's.
    #[prop_or_default]
    pub window: Option<(f64, f64, f64)>,
}

pub enum Msg {
    Resize,
    Frame(f64),
    Wheel(Wheel),
    Down {
        x: f64,
        y: f64,
        pointer: i32,
        /// The pointer in the window's coordinates (where a menu opens).
        client: (f64, f64),
    },
    Move {
        x: f64,
        y: f64,
        client: (f64, f64),
    },
    Up {
        x: f64,
        y: f64,
    },
    Leave,
    DoubleClick {
        x: f64,
        y: f64,
    },
    Key(KeyAction),
    KeyUp(Motion),
    Blur,
    /// Pointer on the minimap at x: pressed (`Some(true)`), dragged (`Some(false)`), released (`None`).
    Minimap(f64, Option<bool>),
    /// Open or close the lanes list.
    LanesOpen(bool),
    /// The canvas font finished loading: text widths are measured again.
    FontLoaded,
    /// The minimap's bands are due (see `frame::paint_minimap`).
    Bands,
    /// Open the transforms menu of the span at canvas (x, y).
    Menu {
        x: f64,
        y: f64,
        client: (f64, f64),
    },
    CloseMenu,
}

pub struct FlameChart {
    container: NodeRef,
    minimap: NodeRef,
    /// The minimap is being dragged.
    minimap_drag: MinimapDrag,
    /// Paints the minimap, keeping its bands between frames.
    minimap_painter: Minimap,
    canvas: NodeRef,
    tooltip: NodeRef,
    model: ChartModel,
    /// Lane titles, by thread index.
    titles: Vec<String>,
    painter: Option<Painter>,
    hover: Option<Hit>,
    pointer: Option<(f64, f64)>,
    /// A press of the pointer on the canvas, and what it is becoming.
    gesture: Gesture,
    keys: HeldKeys,
    last_frame: Option<f64>,
    frame: Option<AnimationFrame>,
    listeners: Vec<EventListener>,
    observer: Option<(ResizeObserver, Closure<dyn FnMut()>)>,
    /// What was last reported to the rest of the page.
    publish: Publisher,
    /// Every lane (threads, then counters) with its title, in trace order:
    /// entry `t` of the first `threads.len()` is thread `t`'s lane.
    all_lanes: Rc<Vec<(LaneKey, String)>>,
    /// The lanes list is open.
    lanes_open: bool,
    /// A span's transforms menu, while open.
    menu: Option<Rc<OpenMenu>>,
    /// The task that draws the minimap's bands, when they are due.
    bands_due: Option<gloo::timers::callback::Timeout>,
    long_press: LongPress,
}

impl Component for FlameChart {
    type Message = Msg;
    type Properties = Props;

    fn create(ctx: &Context<Self>) -> Self {
        let loaded = &ctx.props().loaded;
        let titles: Vec<String> = (0..loaded.trace.threads.len())
            .map(|t| loaded.thread_title(t))
            .collect();
        let all_lanes = lane_keys(&loaded.trace, &titles);
        let mut chart = FlameChart {
            container: NodeRef::default(),
            minimap: NodeRef::default(),
            minimap_drag: MinimapDrag::default(),
            minimap_painter: Minimap::default(),
            canvas: NodeRef::default(),
            tooltip: NodeRef::default(),
            model: new_model(loaded),
            titles,
            painter: None,
            hover: None,
            pointer: None,
            gesture: Gesture::default(),
            keys: HeldKeys::default(),
            last_frame: None,
            frame: None,
            listeners: Vec::new(),
            observer: None,
            publish: Publisher::default(),
            all_lanes: Rc::new(all_lanes),
            lanes_open: false,
            menu: None,
            bands_due: None,
            long_press: LongPress::default(),
        };
        chart.arrange(&ctx.props().lanes);
        if let Some((start, end, scroll)) = ctx.props().window {
            chart.model.show(start, end);
            chart.model.scroll = scroll;
        }
        chart
    }

    fn changed(&mut self, ctx: &Context<Self>, old: &Props) -> bool {
        let props = ctx.props();
        let adopted = !Rc::ptr_eq(&props.loaded, &old.loaded);
        if adopted {
            self.adopt(&props.loaded, &props.lanes);
        }
        if props.focus != old.focus {
            if let Some((_, span)) = props.focus {
                self.zoom_to(&props.loaded, span);
            }
        }
        if props.lanes != old.lanes {
            self.arrange(&props.lanes);
        }
        self.request_frame(ctx);
        // Re-render only to show or hide the chart or its lanes list;
        // painting needs no render.
        adopted || props.hidden != old.hidden || (self.lanes_open && props.lanes != old.lanes)
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::Resize => self.resized(ctx),
            Msg::Frame(time) => self.on_frame(ctx, time),
            Msg::Wheel(wheel) => {
                self.model.wheel(wheel);
                self.request_frame(ctx);
                self.rehover(&ctx.props().loaded)
            }
            Msg::Down {
                x,
                y,
                pointer,
                client,
            } => {
                self.press(ctx, x, y, client);
                self.pointer_down(x, y, pointer)
            }
            Msg::Move { x, y, client } => {
                self.long_press.moved(client.0, client.1);
                self.pointer_moved(ctx, x, y)
            }
            Msg::Up { .. } if self.long_press.up() => self.forget_press(),
            Msg::Up { x, y } => self.pointer_up(ctx, x, y),
            Msg::Menu { x, y, client } => self.open_menu(ctx, x, y, client),
            Msg::CloseMenu => self.menu.take().is_some(),
            Msg::Leave => self.pointer_left(ctx),
            Msg::DoubleClick { x, y } => self.double_click(ctx, x, y),
            // Keys belong to the open view: a hidden chart ignores them.
            Msg::Key(_) if ctx.props().hidden => false,
            Msg::Key(action) => self.key(ctx, action),
            Msg::Minimap(x, pressed) => self.minimap(ctx, x, pressed),
            Msg::FontLoaded => self.font_loaded(ctx),
            Msg::Bands => {
                self.paint_bands(&ctx.props().loaded, ctx.props().colouring);
                false
            }
            Msg::LanesOpen(open) => {
                self.lanes_open = open;
                true
            }
            Msg::KeyUp(m) => {
                self.keys.release(m);
                false
            }
            Msg::Blur => {
                self.keys.clear();
                false
            }
        }
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        html! {
            <div class={classes!("timeline", ctx.props().hidden.then_some("hidden"))}>
                { self.toolbar(ctx) }
                { self.minimap_canvas(ctx) }
                { self.chart(ctx) }
            </div>
        }
    }

    fn rendered(&mut self, ctx: &Context<Self>, first_render: bool) {
        if first_render {
            self.start(ctx);
        }
        self.place_tooltip();
    }

    fn destroy(&mut self, _ctx: &Context<Self>) {
        if let Some((observer, _)) = &self.observer {
            observer.disconnect();
        }
        // A canvas's pixels live until the element is collected; a chart
        // replaced by another (the loading picture by the whole trace) would
        // hold its own beside the new chart's at the load's memory peak.
        for canvas in [&self.canvas, &self.minimap] {
            if let Some(canvas) = canvas.cast::<web_sys::HtmlCanvasElement>() {
                canvas.set_width(0);
                canvas.set_height(0);
            }
        }
    }
}

/// The chart model of a loaded trace: one lane per thread, then its counters.
fn new_model(loaded: &Loaded) -> ChartModel {
    let lanes = loaded
        .index
        .iter()
        .enumerate()
        .map(|(t, index)| (t, index.depths()));
    let mut model = ChartModel::new(
        loaded.duration as f64,
        lanes,
        loaded.calls.map(|(a, b)| (a as f64, b as f64)),
    );
    model.add_counters(loaded.trace.counters.len());
    model
}

impl FlameChart {
    /// Shows another trace in the same chart: a newer picture of a trace
    /// still loading (`ui::partial`), drawn whole again, with no hover.
    fn adopt(&mut self, loaded: &Loaded, layout: &LaneLayout) {
        self.titles = (0..loaded.trace.threads.len())
            .map(|t| loaded.thread_title(t))
            .collect();
        self.all_lanes = Rc::new(lane_keys(&loaded.trace, &self.titles));
        self.model = new_model(loaded);
        self.hover = None;
        self.minimap_painter.forget_bands();
        if let Some(painter) = &mut self.painter {
            painter.forget_name_widths(); // the new picture's string ids
        }
        self.arrange(layout);
        self.resize();
        self.publish.new_picture();
    }

    /// Shows the lanes `layout` keeps, in its order.
    fn arrange(&mut self, layout: &LaneLayout) {
        let (threads, counters) = layout.shown(&self.all_lanes);
        self.model.arrange(&threads, &counters);
        self.publish.lanes_changed();
    }

    fn request_frame(&mut self, ctx: &Context<Self>) {
        if self.frame.is_none() {
            let link = ctx.link().clone();
            self.frame = Some(request_animation_frame(move |time| {
                link.send_message(Msg::Frame(time))
            }));
        }
    }

    fn set_cursor(&self, cursor: &str) {
        if let Some(canvas) = self.canvas.cast::<HtmlElement>() {
            let _ = canvas.style().set_property("cursor", cursor);
        }
    }
}
