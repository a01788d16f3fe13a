//! The aggregated flame graph of one call tree: a canvas that fills its box
//! (taller when the tree is deeper, then the box scrolls), breadcrumbs of the
//! zoomed node's ancestors, and a hover tooltip. Clicking a node zooms into
//! its subtree and picks its function (for the sandwich); a breadcrumb or
//! Escape zooms back out. The zoom is the page's (`ViewState::zoom`): this
//! component shows `zoom` and asks for changes through `on_zoom`. The diff
//! view brings its own names, fills, outline and tooltip body
//! ([`DiffLook`]). A right-click or a long press on a node opens its
//! transforms menu (`node_menu`, `on_menu`).

use crate::render::colors::Colouring;
use crate::render::flamegraph::{paint, FlameFrame, ROW};
use crate::ui::context_menu::{LongPress, OpenMenu};
use crate::view_model::node_menu::MenuNode;
use crate::view_model::Loaded;
use flamedrop_core::analysis::flamegraph::{layout, FlameRect};
use flamedrop_core::analysis::CallTree;
use flamedrop_core::model::{StrId, StringTable};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use web_sys::{Element, HtmlCanvasElement, HtmlElement, PointerEvent, ResizeObserver};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub loaded: Rc<Loaded>,
    pub tree: Rc<CallTree>,
    /// The canvas' id (`flamegraph`, `sandwich-callers`, …).
    pub id: AttrValue,
    pub label: AttrValue,
    #[prop_or_default]
    pub upside_down: bool,
    pub marks: Option<Rc<Vec<bool>>>,
    /// Prints a weight (a duration, bytes, a count).
    pub format: Callback<i64, String>,
    pub on_pick: Callback<StrId>,
    /// The node shown at full width (0: the root).
    pub zoom: u32,
    pub on_zoom: Callback<u32>,
    /// The page's theme and how calls are coloured.
    pub colouring: Colouring,
    /// What the diff view draws differently.
    #[prop_or_default]
    pub look: Option<DiffLook>,
    /// The transforms menu's node for a node of the tree (none: no menu).
    #[prop_or_default]
    pub node_menu: Option<Callback<u32, Option<MenuNode>>>,
    /// A right-click or long press asks for the menu.
    #[prop_or_default]
    pub on_menu: Callback<OpenMenu>,
}

/// A flame graph of a tree that is not the trace's own (the diff view's).
#[derive(Clone)]
pub struct DiffLook {
    /// The names the tree's nodes refer to.
    pub strings: Rc<StringTable>,
    /// A fill per node.
    pub fills: Rc<Vec<String>>,
    /// The function whose nodes are outlined.
    pub outlined: Option<StrId>,
    /// The tooltip's facts for a node.
    pub tip: Callback<u32, Html>,
}

/// Same names and fills (by identity), same outline and tooltip.
impl PartialEq for DiffLook {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.strings, &other.strings)
            && Rc::ptr_eq(&self.fills, &other.fills)
            && self.outlined == other.outlined
            && self.tip == other.tip
    }
}

pub enum Msg {
    Resize,
    Move(Point),
    Leave,
    Click(f64, f64),
    Key(String),
    /// A press began (it may become a long press).
    Down(Point),
    Up,
    /// Open the menu of the node at the point.
    Menu(Point),
}

/// A pointer position: on the canvas (x, y) and in the window (client).
#[derive(Clone, Copy)]
pub struct Point {
    x: f64,
    y: f64,
    client_x: f64,
    client_y: f64,
}

impl Point {
    fn of(e: &MouseEvent) -> Point {
        Point {
            x: f64::from(e.offset_x()),
            y: f64::from(e.offset_y()),
            client_x: f64::from(e.client_x()),
            client_y: f64::from(e.client_y()),
        }
    }
}

pub struct FlameGraph {
    scroller: NodeRef,
    canvas: NodeRef,
    hover: Option<u32>,
    pointer: (f64, f64),
    rects: Vec<FlameRect>,
    width: f64,
    height: f64,
    observer: Option<(ResizeObserver, Closure<dyn FnMut()>)>,
    long_press: LongPress,
    /// A long press opened the menu: the click that follows its release
    /// must not zoom.
    swallow_click: bool,
}

impl Component for FlameGraph {
    type Message = Msg;
    type Properties = Props;

    fn create(_ctx: &Context<Self>) -> Self {
        FlameGraph {
            scroller: NodeRef::default(),
            canvas: NodeRef::default(),
            hover: None,
            pointer: (0.0, 0.0),
            rects: Vec::new(),
            width: 0.0,
            height: 0.0,
            observer: None,
            long_press: LongPress::default(),
            swallow_click: false,
        }
    }

    fn changed(&mut self, ctx: &Context<Self>, old: &Props) -> bool {
        // The two sides of one diff share node indices: keep the zoom.
        let same_diff = match (&ctx.props().look, &old.look) {
            (Some(a), Some(b)) => Rc::ptr_eq(&a.strings, &b.strings),
            _ => false,
        };
        if !Rc::ptr_eq(&ctx.props().tree, &old.tree) && !same_diff {
            self.hover = None;
            // Node numbers belong to the old tree.
            if ctx.props().zoom != 0 {
                ctx.props().on_zoom.emit(0);
            }
        }
        self.relayout(ctx);
        true
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::Resize => {
                self.relayout(ctx);
                true
            }
            Msg::Move(p) => {
                let (x, y) = (p.x, p.y);
                self.long_press.moved(p.client_x, p.client_y);
                self.pointer = (x, y);
                let hit = self.frame(ctx).hit(x, y);
                if hit == self.hover {
                    return false;
                }
                self.hover = hit;
                true
            }
            Msg::Leave => {
                self.long_press.up();
                self.hover.take().is_some()
            }
            Msg::Down(p) => {
                let link = ctx.link().clone();
                self.long_press.down(p.client_x, p.client_y, move || {
                    link.send_message(Msg::Menu(p))
                });
                false
            }
            Msg::Up => {
                self.swallow_click = self.long_press.up();
                false
            }
            Msg::Menu(p) => {
                self.open_menu(ctx, p);
                false
            }
            Msg::Click(_, _) if std::mem::take(&mut self.swallow_click) => false,
            Msg::Click(x, y) => {
                let Some(node) = self.frame(ctx).hit(x, y) else {
                    return false;
                };
                // Zoom first: picking another function then resets the
                // sandwich's zoom along with its trees.
                ctx.props().on_zoom.emit(node);
                if let Some(n) = ctx.props().tree.get(node) {
                    ctx.props().on_pick.emit(n.name);
                }
                false
            }
            Msg::Key(key) => {
                let zoom = ctx.props().zoom;
                if key == "Escape" && zoom != 0 {
                    let parent = ctx.props().tree.get(zoom).map_or(0, |n| n.parent);
                    ctx.props().on_zoom.emit(parent);
                }
                false
            }
        }
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let props = ctx.props();
        let link = ctx.link();
        let at = |e: &MouseEvent| (f64::from(e.offset_x()), f64::from(e.offset_y()));
        let moved = link.callback(move |e: MouseEvent| Msg::Move(Point::of(&e)));
        let down = link
            .batch_callback(|e: PointerEvent| (e.button() == 0).then(|| Msg::Down(Point::of(&e))));
        let up = link.callback(|_: PointerEvent| Msg::Up);
        let menu = link.callback(|e: MouseEvent| {
            e.prevent_default();
            Msg::Menu(Point::of(&e))
        });
        let click = link.callback(move |e: MouseEvent| {
            let (x, y) = at(&e);
            Msg::Click(x, y)
        });
        let key = link.callback(|e: KeyboardEvent| Msg::Key(e.key()));
        let crumbs = self.breadcrumbs(ctx);
        let tooltip = self.hover.and_then(|h| props.tree.get(h)).map(|n| {
            if let (Some(look), Some(h)) = (&props.look, self.hover) {
                return html! {
                    <div class="tooltip flame-tip diff-tip" role="tooltip">
                        <div class="tooltip-name">{ look.strings.get(n.name) }</div>
                        { look.tip.emit(h) }
                    </div>
                };
            }
            let total = props.tree.get(props.zoom).map_or(1, |z| z.total.max(1));
            html! {
                <div class="tooltip flame-tip" role="tooltip">
                    <div class="tooltip-name">{ props.loaded.trace.str(n.name) }</div>
                    <dl class="facts">
                        <dt>{ "total" }</dt><dd>{ format!("{} ({:.1}%)", props.format.emit(n.total), 100.0 * n.total as f64 / total as f64) }</dd>
                        <dt>{ "self" }</dt><dd>{ props.format.emit(n.self_time) }</dd>
                        <dt>{ "calls" }</dt><dd>{ n.calls }</dd>
                    </dl>
                </div>
            }
        });
        html! {
            <div class="flamegraph-view">
                <nav class="breadcrumbs" aria-label="Zoomed subtree">{ crumbs }</nav>
                <div class="flame-scroll" ref={self.scroller.clone()}>
                    <canvas id={props.id.clone()} ref={self.canvas.clone()} tabindex="0"
                        aria-label={props.label.clone()}
                        onmousemove={moved} onmouseleave={link.callback(|_: MouseEvent| Msg::Leave)}
                        onclick={click} onkeydown={key} oncontextmenu={menu}
                        onpointerdown={down} onpointerup={up.clone()} onpointercancel={up} />
                    { for tooltip }
                </div>
            </div>
        }
    }

    fn rendered(&mut self, ctx: &Context<Self>, first_render: bool) {
        if first_render {
            self.observe(ctx);
            self.relayout(ctx);
        }
        self.place_tooltip();
        self.paint(ctx);
    }

    fn destroy(&mut self, _ctx: &Context<Self>) {
        if let Some((observer, _)) = &self.observer {
            observer.disconnect();
        }
    }
}

impl FlameGraph {
    /// Opens the transforms menu of the node at `p`, if there is one there.
    fn open_menu(&self, ctx: &Context<Self>, p: Point) {
        let props = ctx.props();
        let node = self.frame(ctx).hit(p.x, p.y);
        let menu = node.zip(props.node_menu.as_ref());
        if let Some(node) = menu.and_then(|(node, menu)| menu.emit(node)) {
            props.on_menu.emit(OpenMenu {
                x: p.client_x,
                y: p.client_y,
                node,
            });
        }
    }

    fn frame<'a>(&'a self, ctx: &'a Context<Self>) -> FlameFrame<'a> {
        let props = ctx.props();
        FlameFrame {
            tree: &props.tree,
            rects: &self.rects,
            strings: self.strings(ctx),
            width: self.width,
            height: self.height,
            upside_down: props.upside_down,
            marks: props.marks.as_deref().map(Vec::as_slice),
            hover: self.hover,
            dark: props.colouring.dark,
            by_group: props.colouring.by_group,
            fills: props.look.as_ref().map(|l| l.fills.as_slice()),
            outlined: props.look.as_ref().and_then(|l| l.outlined),
        }
    }

    /// The names the tree refers to: the diff's own, or the trace's.
    fn strings<'a>(&'a self, ctx: &'a Context<Self>) -> &'a StringTable {
        let props = ctx.props();
        match &props.look {
            Some(look) => &look.strings,
            None => &props.loaded.trace.strings,
        }
    }

    /// Lays the tree out for the box's width; the canvas is as tall as the
    /// deepest row, at least the box's height.
    fn relayout(&mut self, ctx: &Context<Self>) {
        let Some(scroller) = self.scroller.cast::<Element>() else {
            return;
        };
        self.width = f64::from(scroller.client_width()).max(1.0);
        let tree = &ctx.props().tree;
        let zoom = Some(ctx.props().zoom).filter(|&z| tree.get(z).is_some());
        self.rects = layout(tree, zoom.unwrap_or(0), 0.5 / self.width);
        let depth = self
            .rects
            .iter()
            .map(|r| r.depth)
            .max()
            .map_or(0, |d| d + 1);
        self.height = (f64::from(depth) * ROW + 4.0).max(f64::from(scroller.client_height()) - 4.0);
    }

    fn paint(&self, ctx: &Context<Self>) {
        let Some(canvas) = self.canvas.cast::<HtmlCanvasElement>() else {
            return;
        };
        let dpr = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio());
        let (w, h) = (
            (self.width * dpr).round() as u32,
            (self.height * dpr).round() as u32,
        );
        if canvas.width() != w.max(1) || canvas.height() != h.max(1) {
            canvas.set_width(w.max(1));
            canvas.set_height(h.max(1));
        }
        let style = canvas.style();
        let _ = style.set_property("width", &format!("{}px", self.width));
        let _ = style.set_property("height", &format!("{}px", self.height));
        let Some(g) = crate::browser::context_2d(&canvas) else {
            return;
        };
        let _ = g.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0);
        paint(&g, &self.frame(ctx));
        if ctx.props().upside_down {
            if let Some(s) = self.scroller.cast::<Element>() {
                s.set_scroll_top(s.scroll_height());
            }
        }
    }

    fn breadcrumbs(&self, ctx: &Context<Self>) -> Html {
        let props = ctx.props();
        let crumb = |node: u32, label: String, current: bool| {
            let onclick = props.on_zoom.reform(move |_: MouseEvent| node);
            html! {
                <button type="button" class={classes!("crumb", current.then_some("current"))}
                    aria-current={current.then_some("true")} {onclick}>{ label }</button>
            }
        };
        let mut items = vec![crumb(0, "all".to_owned(), props.zoom == 0)];
        for node in props.tree.path_to(props.zoom) {
            let name = props
                .tree
                .get(node)
                .map_or("", |n| self.strings(ctx).get(n.name));
            items.push(crumb(node, name.to_owned(), node == props.zoom));
        }
        items.into_iter().collect()
    }

    fn observe(&mut self, ctx: &Context<Self>) {
        let Some(el) = self.scroller.cast::<Element>() else {
            return;
        };
        let link = ctx.link().clone();
        let callback: Closure<dyn FnMut()> = Closure::new(move || link.send_message(Msg::Resize));
        if let Ok(observer) = ResizeObserver::new(callback.as_ref().unchecked_ref()) {
            observer.observe(&el);
            self.observer = Some((observer, callback));
        }
    }

    /// Puts the tooltip beside the pointer (through CSSOM: the CSP forbids
    /// inline style attributes).
    fn place_tooltip(&self) {
        let Some(scroller) = self.scroller.cast::<Element>() else {
            return;
        };
        let Ok(Some(tip)) = scroller.query_selector(".flame-tip") else {
            return;
        };
        let Ok(tip) = tip.dyn_into::<HtmlElement>() else {
            return;
        };
        let (x, y) = self.pointer;
        let left = if x + 16.0 + f64::from(tip.offset_width()) > self.width {
            x - f64::from(tip.offset_width()) - 12.0
        } else {
            x + 16.0
        };
        let style = tip.style();
        let _ = style.set_property("left", &format!("{}px", left.max(0.0).round()));
        let _ = style.set_property("top", &format!("{}px", (y + 18.0).round()));
    }
}
