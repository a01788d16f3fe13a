//! The flame chart component: owns `canvas#flamechart`, turns pointer, wheel
//! and keyboard input into [`ChartModel`] changes, repaints on the next
//! animation frame, and shows the hover [`Tooltip`].
//!
//! Painting happens outside Yew's rendering: a view change only schedules a
//! frame; Yew re-renders the component only when the hovered item changes
//! (to swap the tooltip's content).

mod input;
mod lanes_list;

use super::span_info;
use super::tooltip::Tooltip;
use crate::browser::prefers_dark;
use crate::canvas::colors;
use crate::canvas::minimap::{self, Minimap, MINIMAP_HEIGHT};
use crate::canvas::paint::{Frame, Painter};
use crate::chart::keys::{HeldKeys, KeyAction, Motion, STEP_ZOOM};
use crate::chart::{ChartModel, HeaderButton, Hit, SpanRef, Track, Wheel, LANE, RULER_HEIGHT};
use crate::js_api::{self, CounterBox, LaneBox};
use crate::state::Loaded;
use crate::views::{LaneKey, LaneLayout};
use gloo::events::EventListener;
use gloo::render::{request_animation_frame, AnimationFrame};
use lanes_list::LanesList;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use web_sys::{Element, HtmlCanvasElement, HtmlElement, PointerEvent, ResizeObserver};
use yew::prelude::*;

/// How far from the left a click on a lane header toggles the lane.
const LANE_TITLE_PX: f64 = 320.0;

/// Pointer travel (px) after which a press is a drag, not a click.
const DRAG_THRESHOLD_PX: f64 = 3.0;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub loaded: Rc<Loaded>,
    pub selected: Option<SpanRef>,
    pub on_select: Callback<Option<SpanRef>>,
    /// A request to zoom to a span; the number makes repeated requests distinct.
    pub focus: Option<(u32, SpanRef)>,
    /// Spans chosen in a table: drawn emphasised, the others dimmed.
    #[prop_or_default]
    pub highlight: Option<Rc<crate::highlight::Highlight>>,
    /// Another view is open: the chart stays mounted (keeping its zoom) but hidden.
    #[prop_or_default]
    pub hidden: bool,
    /// Per string id: matches the search (others are greyed).
    #[prop_or_default]
    pub marks: Option<Rc<Vec<bool>>>,
    /// Bumped when the theme changes.
    #[prop_or_default]
    pub generation: u32,
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
}

pub enum Msg {
    Resize,
    Frame(f64),
    Wheel(Wheel),
    Down {
        x: f64,
        y: f64,
        pointer: i32,
    },
    Move {
        x: f64,
        y: f64,
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
}

struct Drag {
    x: f64,
    y: f64,
    moved: bool,
    /// Started on the ruler: selects a time range from this x.
    range_from: Option<f64>,
    /// Started on a lane header: moves that lane to where it is dropped.
    track: Option<Track>,
}

pub struct FlameChart {
    container: NodeRef,
    minimap: NodeRef,
    /// The minimap is being dragged.
    minimap_drag: bool,
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
    drag: Option<Drag>,
    keys: HeldKeys,
    last_frame: Option<f64>,
    frame: Option<AnimationFrame>,
    listeners: Vec<EventListener>,
    observer: Option<(ResizeObserver, Closure<dyn FnMut()>)>,
    /// Scroll, width, height and theme when lanes were last published to `window.flamedrop`.
    published: Option<(f64, f64, f64, bool)>,
    /// Every lane (threads, then counters) with its title, in trace order:
    /// entry `t` of the first `threads.len()` is thread `t`'s lane.
    all_lanes: Rc<Vec<(LaneKey, String)>>,
    /// The lanes list is open.
    lanes_open: bool,
}

impl Component for FlameChart {
    type Message = Msg;
    type Properties = Props;

    fn create(ctx: &Context<Self>) -> Self {
        let loaded = &ctx.props().loaded;
        let lanes = loaded
            .index
            .iter()
            .enumerate()
            .map(|(t, index)| (t, index.depths()));
        let all_lanes = lane_keys(loaded);
        let mut chart = FlameChart {
            container: NodeRef::default(),
            minimap: NodeRef::default(),
            minimap_drag: false,
            minimap_painter: Minimap::default(),
            canvas: NodeRef::default(),
            tooltip: NodeRef::default(),
            model: {
                let mut model = ChartModel::new(
                    loaded.duration as f64,
                    lanes,
                    loaded.calls.map(|(a, b)| (a as f64, b as f64)),
                );
                model.add_counters(loaded.trace.counters.len());
                model
            },
            titles: (0..loaded.trace.threads.len())
                .map(|t| loaded.thread_title(t))
                .collect(),
            painter: None,
            hover: None,
            pointer: None,
            drag: None,
            keys: HeldKeys::default(),
            last_frame: None,
            frame: None,
            listeners: Vec::new(),
            observer: None,
            published: None,
            all_lanes: Rc::new(all_lanes),
            lanes_open: false,
        };
        chart.arrange(&ctx.props().lanes);
        chart
    }

    fn changed(&mut self, ctx: &Context<Self>, old: &Props) -> bool {
        let props = ctx.props();
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
        props.hidden != old.hidden || (self.lanes_open && props.lanes != old.lanes)
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        let loaded = ctx.props().loaded.clone();
        match msg {
            Msg::Resize => {
                self.resize();
                self.request_frame(ctx);
                false
            }
            Msg::Frame(time) => {
                self.frame = None;
                if self.keys.any() {
                    let dt = self.last_frame.map_or(16.0, |last| time - last);
                    let anchor = self.pointer.map_or(self.model.view.width / 2.0, |p| p.0);
                    self.keys.apply(&mut self.model, dt, anchor);
                    self.last_frame = Some(time);
                    self.request_frame(ctx);
                } else {
                    self.last_frame = None;
                }
                let hover_changed = self.rehover(&loaded);
                let props = ctx.props();
                self.paint(
                    &loaded,
                    props.selected,
                    props.highlight.as_deref(),
                    props.marks.as_deref(),
                    props.range,
                );
                hover_changed
            }
            Msg::Wheel(wheel) => {
                self.model.wheel(wheel);
                self.request_frame(ctx);
                self.rehover(&loaded)
            }
            Msg::Down { x, y, pointer } => {
                if let Some(canvas) = self.canvas.cast::<Element>() {
                    let _ = canvas.set_pointer_capture(pointer);
                }
                // A header (away from its buttons) drags its lane.
                let track = self
                    .model
                    .track_at(y)
                    .filter(|&(_, header)| {
                        header && HeaderButton::at(self.model.view.width, x).is_none()
                    })
                    .map(|(track, _)| track);
                self.drag = Some(Drag {
                    x,
                    y,
                    moved: false,
                    range_from: (y < RULER_HEIGHT).then_some(x),
                    track,
                });
                false
            }
            Msg::Move { x, y } => {
                self.pointer = Some((x, y));
                if let Some(drag) = &mut self.drag {
                    if drag.range_from.is_some() {
                        drag.x = x;
                        drag.moved = true;
                        self.request_frame(ctx);
                        return false;
                    }
                    let (dx, dy) = (x - drag.x, y - drag.y);
                    if drag.track.is_some() {
                        if drag.moved || dx.hypot(dy) > DRAG_THRESHOLD_PX {
                            drag.moved = true;
                            self.set_cursor("grabbing");
                            self.request_frame(ctx);
                        }
                        return false;
                    }
                    if drag.moved || dx.hypot(dy) > DRAG_THRESHOLD_PX {
                        drag.moved = true;
                        self.model.pan_px(-dx);
                        self.model.scroll_by(-dy);
                        drag.x = x;
                        drag.y = y;
                        self.set_cursor("grabbing");
                        self.request_frame(ctx);
                    }
                    return false;
                }
                let changed = self.rehover(&loaded);
                if changed {
                    self.request_frame(ctx); // the hover outline moves
                } else {
                    self.place_tooltip();
                }
                changed
            }
            Msg::Up { x, y } => {
                let Some(drag) = self.drag.take() else {
                    return false;
                };
                self.set_cursor("");
                if let Some(from) = drag.range_from {
                    let (a, b) = (from.min(x), from.max(x));
                    let range = ((b - a) > DRAG_THRESHOLD_PX).then(|| {
                        let at =
                            |px: f64| loaded.origin + self.model.view.time_at(px).round() as i64;
                        (at(a), at(b))
                    });
                    ctx.props().on_range.emit(range);
                    self.request_frame(ctx);
                    return false;
                }
                if let (Some(track), true) = (drag.track, drag.moved) {
                    self.drop_track(ctx, track, y);
                    return false;
                }
                if !drag.moved {
                    if let Some((track, true)) = self.model.track_at(y) {
                        if let Some(button) = HeaderButton::at(self.model.view.width, x) {
                            self.header_button(ctx, track, button);
                            return false;
                        }
                    }
                    let hit =
                        self.model
                            .hit(&loaded.trace.threads, &loaded.index, loaded.origin, x, y);
                    let span = match hit {
                        Some(Hit::Span(s)) => Some(s),
                        _ => None,
                    };
                    // A click on a lane's title collapses or expands the lane.
                    if hit.is_none() && x < LANE_TITLE_PX {
                        let header = self.model.hit_lane(y).filter(|(_, row)| row.is_none());
                        if let Some(thread) = header.map(|(lane, _)| lane.thread) {
                            self.model.toggle_lane(thread);
                            self.published = None;
                            self.request_frame(ctx);
                            return false;
                        }
                    }
                    ctx.props().on_select.emit(span);
                }
                false
            }
            Msg::Leave => {
                self.pointer = None;
                let changed = self.hover.take().is_some();
                if changed {
                    self.request_frame(ctx);
                }
                changed
            }
            Msg::DoubleClick { x, y } => {
                if let Some(Hit::Span(s)) =
                    self.model
                        .hit(&loaded.trace.threads, &loaded.index, loaded.origin, x, y)
                {
                    self.zoom_to(&loaded, s);
                    self.request_frame(ctx);
                }
                false
            }
            // Keys belong to the open view: a hidden chart ignores them.
            Msg::Key(_) if ctx.props().hidden => false,
            Msg::Key(action) => {
                let anchor = self.pointer.map_or(self.model.view.width / 2.0, |p| p.0);
                match action {
                    KeyAction::Hold(m) => {
                        if !self.keys.press(m) {
                            return false;
                        }
                    }
                    KeyAction::ZoomInStep => self.model.zoom_at(STEP_ZOOM, anchor),
                    KeyAction::ZoomOutStep => self.model.zoom_at(1.0 / STEP_ZOOM, anchor),
                    KeyAction::Reset => self.model.reset(),
                    KeyAction::ClearSelection => ctx.props().on_select.emit(None),
                }
                self.request_frame(ctx);
                false
            }
            Msg::Minimap(x, pressed) => {
                match pressed {
                    Some(true) => self.minimap_drag = true,
                    Some(false) if !self.minimap_drag => return false,
                    Some(false) => {}
                    None => {
                        self.minimap_drag = false;
                        return false;
                    }
                }
                // Centre the window on the time under the pointer.
                let width = self.model.view.width.max(1.0);
                let t = x / width * loaded.duration.max(1) as f64;
                let half = self.model.view.duration() / 2.0;
                self.model.show(t - half, t + half);
                self.request_frame(ctx);
                false
            }
            Msg::FontLoaded => {
                if let Some(painter) = &mut self.painter {
                    painter.forget_text_widths();
                }
                self.request_frame(ctx);
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
        let link = ctx.link();
        let at = |e: &MouseEvent| (f64::from(e.offset_x()), f64::from(e.offset_y()));
        let down = link.batch_callback(move |e: PointerEvent| {
            (e.button() == 0).then(|| {
                let (x, y) = at(&e);
                Msg::Down {
                    x,
                    y,
                    pointer: e.pointer_id(),
                }
            })
        });
        let moved = link.callback(move |e: PointerEvent| {
            let (x, y) = at(&e);
            Msg::Move { x, y }
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
            .filter(|_| self.drag.is_none())
            .and_then(|h| span_info::hit(&ctx.props().loaded, h));
        let empty = no_timeline(&ctx.props().loaded.trace);
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
            <div class={classes!("timeline", ctx.props().hidden.then_some("hidden"))}>
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
            <div class="chart" ref={self.container.clone()}>
                <canvas id="flamechart" ref={self.canvas.clone()} tabindex="0"
                    aria-label="Flame chart: one lane per thread, time runs left to right"
                    onpointerdown={down} onpointermove={moved} onpointerup={up}
                    onpointerleave={leave} ondblclick={dbl} />
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
            </div>
        }
    }

    fn rendered(&mut self, ctx: &Context<Self>, first_render: bool) {
        if first_render {
            if let Some(canvas) = self.canvas.cast::<HtmlCanvasElement>() {
                match Painter::new(canvas.clone()) {
                    Ok(painter) => self.painter = Some(painter),
                    Err(e) => gloo::console::error!(e),
                }
                self.listen(ctx, &canvas);
            }
            self.observe(ctx);
            let family = crate::browser::CANVAS_FONT_FAMILY;
            let fonts = [format!("11px '{family}'"), format!("600 11px '{family}'")];
            // Usually the page's own text has loaded the font already: then
            // the first frame measures with it, and a second full paint
            // (every label measured again) right after it is not needed.
            if !fonts.iter().all(|spec| crate::browser::font_ready(spec)) {
                let link = ctx.link().clone();
                wasm_bindgen_futures::spawn_local(async move {
                    for spec in &fonts {
                        crate::browser::load_font(spec).await;
                    }
                    link.send_message(Msg::FontLoaded);
                });
            }
            // The observer's first report (after the browser's next layout)
            // sizes the chart and asks for its first frame. Reading the size
            // here would force that layout of the whole new page into this
            // task, on top of building it (40 ms and more for a big trace).
            if self.observer.is_none() {
                self.resize();
                self.request_frame(ctx);
            }
        }
        self.place_tooltip();
    }

    fn destroy(&mut self, _ctx: &Context<Self>) {
        if let Some((observer, _)) = &self.observer {
            observer.disconnect();
        }
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

/// Every lane's key and title (threads, then counter tracks, in trace
/// order). A thread id that two threads share gets the thread index
/// appended, so no lane is lost.
fn lane_keys(loaded: &Loaded) -> Vec<(LaneKey, String)> {
    let trace = &loaded.trace;
    let mut all: Vec<(LaneKey, String)> =
        Vec::with_capacity(trace.threads.len() + trace.counters.len());
    let mut ids: Vec<&str> = trace.threads.iter().map(|t| t.id.as_str()).collect();
    ids.sort_unstable();
    for (t, thread) in trace.threads.iter().enumerate() {
        let twice = ids.binary_search(&thread.id.as_str()).is_ok_and(|i| {
            ids.get(i + 1) == Some(&thread.id.as_str())
                || (i > 0 && ids.get(i - 1) == Some(&thread.id.as_str()))
        });
        let key = if twice {
            LaneKey::Thread(format!("{}#{t}", thread.id))
        } else {
            LaneKey::Thread(thread.id.clone())
        };
        all.push((key, loaded.thread_title(t)));
    }
    for (c, counter) in trace.counters.iter().enumerate() {
        all.push((
            LaneKey::Counter(c),
            format!("{} ({})", counter.name, counter.unit),
        ));
    }
    all
}

impl FlameChart {
    fn keys(&self) -> Vec<LaneKey> {
        self.all_lanes.iter().map(|(k, _)| k.clone()).collect()
    }

    /// Shows the lanes `layout` keeps, in its order.
    fn arrange(&mut self, layout: &LaneLayout) {
        let (mut threads, mut counters) = (Vec::new(), Vec::new());
        for key in layout.arranged(&self.keys()) {
            if layout.is_hidden(&key) {
                continue;
            }
            match key {
                LaneKey::Counter(c) => counters.push(c),
                thread => threads.extend(self.all_lanes.iter().position(|(k, _)| *k == thread)),
            }
        }
        self.model.arrange(&threads, &counters);
        self.published = None;
    }

    fn key_of(&self, track: Track) -> Option<LaneKey> {
        match track {
            Track::Thread(t) => self.all_lanes.get(t).map(|(k, _)| k.clone()),
            Track::Counter(c) => Some(LaneKey::Counter(c)),
        }
    }

    /// A click on a header's move-up, move-down or hide button.
    fn header_button(&mut self, ctx: &Context<Self>, track: Track, button: HeaderButton) {
        let Some(key) = self.key_of(track) else {
            return;
        };
        let mut layout = ctx.props().lanes.clone();
        let keys = self.keys();
        match button {
            HeaderButton::Up => layout.move_by(&keys, &key, -1),
            HeaderButton::Down => layout.move_by(&keys, &key, 1),
            HeaderButton::Hide => layout.set_hidden(&key, true),
        }
        ctx.props().on_lanes.emit(layout);
    }

    /// A lane dragged by its header was dropped at canvas y: it takes the
    /// place of the lane there.
    fn drop_track(&mut self, ctx: &Context<Self>, track: Track, y: f64) {
        self.set_cursor("");
        self.request_frame(ctx);
        let (Some(key), Some((target, _))) = (self.key_of(track), self.model.track_at(y)) else {
            return;
        };
        let Some(target) = self.key_of(target) else {
            return;
        };
        let mut layout = ctx.props().lanes.clone();
        let keys = self.keys();
        let Some(to) = layout.arranged(&keys).iter().position(|k| *k == target) else {
            return;
        };
        layout.move_to(&keys, &key, to);
        ctx.props().on_lanes.emit(layout);
    }

    fn resize(&mut self) {
        let Some(container) = self.container.cast::<Element>() else {
            return;
        };
        let (w, h) = (
            f64::from(container.client_width()),
            f64::from(container.client_height()),
        );
        let dpr = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio());
        self.model.resize(w, h);
        if let Some(painter) = &mut self.painter {
            painter.resize(w, h, dpr);
        }
    }

    fn request_frame(&mut self, ctx: &Context<Self>) {
        if self.frame.is_none() {
            let link = ctx.link().clone();
            self.frame = Some(request_animation_frame(move |time| {
                link.send_message(Msg::Frame(time))
            }));
        }
    }

    /// The range being dragged, else the selected one, as view offsets.
    fn shown_range(&self, loaded: &Loaded, range: Option<(i64, i64)>) -> Option<(f64, f64)> {
        if let Some(Drag {
            range_from: Some(from),
            x,
            ..
        }) = &self.drag
        {
            let (a, b) = (self.model.view.time_at(*from), self.model.view.time_at(*x));
            return Some((a.min(b), a.max(b)));
        }
        range.map(|(a, b)| ((a - loaded.origin) as f64, (b - loaded.origin) as f64))
    }

    fn paint(
        &mut self,
        loaded: &Loaded,
        selected: Option<SpanRef>,
        highlight: Option<&crate::highlight::Highlight>,
        marks: Option<&Vec<bool>>,
        range: Option<(i64, i64)>,
    ) {
        let shown = self.shown_range(loaded, range);
        let Some(painter) = &mut self.painter else {
            return;
        };
        let dark = prefers_dark();
        let frame = Frame {
            loaded,
            model: &self.model,
            hover: self.hover,
            selected,
            titles: &self.titles,
            dark,
            highlight,
            marks: marks.map(Vec::as_slice),
            range: shown,
            drop_at: match &self.drag {
                Some(Drag {
                    track: Some(_),
                    moved: true,
                    ..
                }) => self.pointer.map(|p| p.1),
                _ => None,
            },
        };
        crate::export_view::remember_chart(&self.model);
        if painter.paint(&frame) && js_api::awaiting_first_draw() {
            js_api::first_draw();
        }
        self.paint_minimap(loaded, dark);
        let key = (
            self.model.scroll,
            self.model.view.width,
            self.model.height,
            dark,
        );
        if self.published != Some(key) {
            self.published = Some(key);
            let lanes = self
                .model
                .lanes
                .iter()
                .map(|lane| LaneBox {
                    thread_id: loaded
                        .trace
                        .threads
                        .get(lane.thread)
                        .map_or_else(String::new, |t| t.id.clone()),
                    top: self.model.screen_y(lane.top),
                    height: lane.height,
                })
                .collect();
            let counters = self
                .model
                .counters
                .iter()
                .filter_map(|track| {
                    let counter = loaded.trace.counters.get(track.counter)?;
                    Some(CounterBox {
                        name: counter.name.clone(),
                        unit: counter.unit.clone(),
                        top: self.model.screen_y(track.top),
                        header: LANE.header,
                        height: track.height,
                    })
                })
                .collect();
            js_api::set_lanes(lanes, counters, colors::theme(dark).background);
        }
    }

    fn paint_minimap(&mut self, loaded: &Loaded, dark: bool) {
        let Some(canvas) = self.minimap.cast::<HtmlCanvasElement>() else {
            return;
        };
        let dpr = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio());
        let width = self.model.view.width;
        let (w, h) = (
            (width * dpr).round().max(1.0) as u32,
            (MINIMAP_HEIGHT * dpr).round() as u32,
        );
        if canvas.width() != w || canvas.height() != h {
            canvas.set_width(w);
            canvas.set_height(h);
        }
        let Some(g) = crate::browser::context_2d(&canvas) else {
            return;
        };
        let _ = g.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0);
        self.minimap_painter
            .paint(&g, (w, h), dpr, loaded, &self.model, dark);
    }

    /// Recomputes what is under the pointer; true if it changed.
    fn rehover(&mut self, loaded: &Loaded) -> bool {
        let hit = self.pointer.and_then(|(x, y)| {
            self.model
                .hit(&loaded.trace.threads, &loaded.index, loaded.origin, x, y)
        });
        if hit == self.hover {
            return false;
        }
        self.hover = hit;
        true
    }

    fn zoom_to(&mut self, loaded: &Loaded, s: SpanRef) {
        let Some(thread) = loaded.trace.threads.get(s.thread) else {
            return;
        };
        let k = s.span as usize;
        let (Some(&start), Some(&end)) = (thread.spans.start.get(k), thread.spans.end.get(k))
        else {
            return;
        };
        let (start, end) = ((start - loaded.origin) as f64, (end - loaded.origin) as f64);
        let pad = ((end - start) * 0.05).max(1.0);
        self.model.show(start - pad, end + pad);
    }

    /// Puts the tooltip beside the pointer, flipped to stay inside the chart.
    fn place_tooltip(&self) {
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

    fn set_cursor(&self, cursor: &str) {
        if let Some(canvas) = self.canvas.cast::<HtmlElement>() {
            let _ = canvas.style().set_property("cursor", cursor);
        }
    }
}
