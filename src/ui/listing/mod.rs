//! The Listing view (`section#listing`): the time-ordered text the format's
//! own tool prints (`uftrace replay`, `LogPrinter`, `sp-rtrace-postproc`),
//! row for row as `flamedrop replay` prints it, in a virtual list: only the
//! rows on screen exist in the page, so a 20 M-row listing scrolls as fast
//! as a short one.
//!
//! The list is a scroll box (`#listing-scroll`) holding a spacer as tall as
//! the rows (capped below the browser's largest element) and, stuck to its
//! top, the window of rows on screen. While the rows fit under the cap the
//! box scrolls natively; past it a wheel moves the window by rows and the
//! scroll bar maps its position onto the rows (`top`, a place among the
//! shown rows). Rows fold (a call up to its exit), are coloured as the
//! timeline colours their call, link to the timeline both ways (a click
//! selects the row's span; a span selected elsewhere scrolls to its row),
//! and `n` / `N` look through the rows' text for the search in slices.

mod rows;
mod save;
mod scroll;
mod search;

use crate::render::colors::Colouring;
use crate::timeline::SpanRef;
use crate::view_model::listing::{folds, folds_hiding, rows_in, Folds, Shown};
use crate::view_model::loaded::Built;
use crate::view_model::{Loaded, ViewChange};
use flamedrop_core::analysis::listing::ListingOptions;
use flamedrop_core::analysis::search::Matcher;
use gloo::events::EventListener;
use scroll::{set_style, wheel_listener};
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement, KeyboardEvent};
use yew::prelude::*;

/// A row's height in CSS px (the stylesheet's `.listing-row` line height).
pub const ROW_PX: f64 = 18.0;
/// The tallest spacer: browsers cap an element's height near 33 M px.
const MAX_SPACER_PX: f64 = 8_000_000.0;

/// A built listing, compared by identity.
#[derive(Clone)]
pub struct BuiltRef(pub Built);

impl PartialEq for BuiltRef {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub loaded: Rc<Loaded>,
    /// The listing, once built (`None` while it is being built).
    pub built: Option<BuiltRef>,
    pub options: ListingOptions,
    /// The ruler's time range (absolute, trace units).
    pub range: Option<(i64, i64)>,
    pub selected: Option<SpanRef>,
    pub search: String,
    /// A search jump asked by `n` / `N`: (forward, bump).
    pub jump: Option<(bool, u32)>,
    pub colouring: Colouring,
    pub on_select: Callback<SpanRef>,
    pub on_change: Callback<ViewChange>,
    /// The selected event of the event log (SELogger): its row is marked
    /// and scrolled to.
    #[prop_or_default]
    pub event: Option<u32>,
    /// A row of an event was selected (after `on_select` of its call).
    #[prop_or_default]
    pub on_event: Callback<u32>,
}

pub enum Msg {
    Scrolled,
    /// A wheel turn of this many rows (past the spacer's cap).
    Wheel(f64),
    Click(MouseEvent),
    Key(KeyboardEvent),
    /// The search for a jump ended: (its number, the row found).
    Found(u32, Option<usize>),
    Copy,
    Save,
    /// Copy or Save ended with this note.
    Note(String),
}

pub struct ListingView {
    /// The place, among the shown rows, at the top of the window.
    top: f64,
    /// The row selected (by a click, a key, a search or the timeline).
    cursor: Option<usize>,
    folds: Folds,
    scroll: NodeRef,
    /// The spacer, the rows' box and the rows (sized and moved from here:
    /// the page's CSP allows no inline styles).
    spacer: NodeRef,
    header: NodeRef,
    lines: NodeRef,
    inner: NodeRef,
    /// Rows on screen at the last render.
    visible: usize,
    /// The scroll position the view last set (its own `scroll` event is
    /// not a move of the user's).
    set_scroll: f64,
    matcher: Option<Matcher>,
    /// Counts search jumps; an older search's answer is dropped.
    searches: u32,
    /// The latest search, which the searches under way read to stop.
    latest_search: Rc<Cell<u32>>,
    note: Option<String>,
    /// The wheel listener and the scroll box it listens on.
    _wheel: Option<(HtmlElement, EventListener)>,
    /// A resize of the window changes how many rows fit.
    _resize: Option<EventListener>,
}

impl Component for ListingView {
    type Message = Msg;
    type Properties = Props;

    fn create(ctx: &Context<Self>) -> Self {
        let mut view = ListingView {
            top: 0.0,
            cursor: None,
            folds: Folds::new(),
            scroll: NodeRef::default(),
            spacer: NodeRef::default(),
            header: NodeRef::default(),
            lines: NodeRef::default(),
            inner: NodeRef::default(),
            visible: 40,
            set_scroll: -1.0,
            matcher: Matcher::parse(&ctx.props().search).ok().flatten(),
            searches: 0,
            latest_search: Rc::new(Cell::new(0)),
            note: None,
            _wheel: None,
            _resize: None,
        };
        view.reveal_selected(ctx.props());
        view.reveal_event(ctx.props());
        view
    }

    fn changed(&mut self, ctx: &Context<Self>, old: &Props) -> bool {
        let props = ctx.props();
        if props.built != old.built || !Rc::ptr_eq(&props.loaded, &old.loaded) {
            self.top = 0.0;
            self.cursor = None;
            self.folds.clear();
            self.note = None;
            self.reveal_selected(props);
        } else if props.selected != old.selected {
            self.reveal_selected(props);
        }
        if props.event != old.event || props.built != old.built {
            self.reveal_event(props);
        }
        if props.range != old.range {
            self.top = 0.0;
        }
        if props.search != old.search {
            self.matcher = Matcher::parse(&props.search).ok().flatten();
        }
        if props.jump != old.jump {
            if let Some((forward, _)) = props.jump {
                self.start_search(ctx, forward);
            }
        }
        true
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        let Some((listing, shown)) = self.shown(ctx.props()) else {
            return matches!(msg, Msg::Note(_));
        };
        match msg {
            Msg::Scrolled => return self.scrolled(&shown),
            Msg::Wheel(rows) => {
                self.top = (self.top + rows).clamp(0.0, self.max_top(&shown));
            }
            Msg::Click(e) => return self.click(ctx, &listing, &shown, &e),
            Msg::Key(e) => return self.key(ctx, &listing, &shown, &e),
            Msg::Found(search, row) => {
                if search != self.searches {
                    return false;
                }
                match row {
                    Some(row) => {
                        self.note = None;
                        self.go_to(ctx, &listing, row);
                    }
                    None => self.note = Some("no row matches the search".to_owned()),
                }
            }
            Msg::Copy => self.note = Some(save::copy(&ctx.props().loaded, &listing)),
            Msg::Save => save::save(&ctx.props().loaded, listing, ctx.link().callback(Msg::Note)),
            Msg::Note(note) => self.note = Some(note),
        }
        true
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        rows::view(self, ctx)
    }

    fn rendered(&mut self, ctx: &Context<Self>, _first: bool) {
        let Some(scroll) = self.scroll.cast::<HtmlElement>() else {
            return;
        };
        // The box is made anew after each build: listen on the one shown.
        let bound = self
            ._wheel
            .as_ref()
            .is_some_and(|(on, _)| on.is_same_node(Some(&scroll)));
        if !bound {
            // The keys move through the rows at once, unless a field has the focus.
            let idle = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.active_element())
                .is_none_or(|e| e.tag_name() == "BODY");
            if idle {
                let _ = scroll.focus();
            }
            let wheel = wheel_listener(&scroll, ctx.link().callback(Msg::Wheel));
            self._wheel = Some((scroll.clone(), wheel));
        }
        if self._resize.is_none() {
            let on_resize = ctx.link().callback(|()| Msg::Scrolled);
            self._resize = web_sys::window()
                .map(|w| EventListener::new(&w, "resize", move |_| on_resize.emit(())));
        }
        let height = f64::from(scroll.client_height());
        let header = self.header_px();
        let visible = ((height - header) / ROW_PX).floor().max(1.0) as usize;
        let Some((_, shown)) = self.shown(ctx.props()) else {
            return;
        };
        let offset = (self.top - self.top.floor()) * ROW_PX;
        set_style(
            &self.spacer,
            "height",
            &format!("{}px", Self::spacer_px(&shown, header)),
        );
        set_style(
            &self.lines,
            "height",
            &format!("{}px", visible as f64 * ROW_PX),
        );
        set_style(
            &self.inner,
            "transform",
            &format!("translateY({}px)", -offset),
        );
        let wanted = self.scroll_of(&shown, f64::from(scroll.scroll_height()) - height);
        if (f64::from(scroll.scroll_top()) - wanted).abs() > 1.0 {
            self.set_scroll = wanted;
            scroll.set_scroll_top(wanted as i32);
        }
        if visible != self.visible {
            self.visible = visible;
            ctx.link().send_message(Msg::Scrolled);
        }
    }
}

impl ListingView {
    /// The listing and the rows shown (`None` before it is built or when
    /// the trace has none).
    fn shown(&self, props: &Props) -> Option<(Built, Shown)> {
        let built = props.built.as_ref()?.0.clone();
        let listing = built.as_ref().as_ref().ok()?;
        let (first, end) = rows_in(listing, &props.loaded.trace, props.range);
        let shown = Shown::new(first, end, &self.folds);
        Some((built, shown))
    }

    /// The highest top: the last rows fill the window.
    fn max_top(&self, shown: &Shown) -> f64 {
        shown.len().saturating_sub(self.visible) as f64
    }

    /// True when the spacer holds every row at its height.
    fn exact(shown: &Shown) -> bool {
        shown.len() as f64 * ROW_PX <= MAX_SPACER_PX
    }

    /// The spacer's height for `shown` rows below `header` px.
    fn spacer_px(shown: &Shown, header: f64) -> f64 {
        header + (shown.len() as f64 * ROW_PX).min(MAX_SPACER_PX)
    }

    /// The header lines' height as drawn (a long header scrolls in a box
    /// of a few lines).
    fn header_px(&self) -> f64 {
        self.header
            .cast::<HtmlElement>()
            .map_or(0.0, |h| f64::from(h.offset_height()))
    }

    /// Where the scroll box should be for `top`, given how far it scrolls.
    fn scroll_of(&self, shown: &Shown, range: f64) -> f64 {
        if Self::exact(shown) {
            self.top * ROW_PX
        } else {
            let max = self.max_top(shown);
            if max <= 0.0 {
                0.0
            } else {
                self.top / max * range.max(0.0)
            }
        }
    }

    /// The scroll box moved: by the user (scroll bar, keys, a native
    /// wheel) or by the view itself.
    fn scrolled(&mut self, shown: &Shown) -> bool {
        let Some(scroll) = self.scroll.cast::<HtmlElement>() else {
            return false;
        };
        let at = f64::from(scroll.scroll_top());
        if (at - self.set_scroll).abs() <= 1.0 {
            return true;
        }
        self.set_scroll = -1.0;
        let range = f64::from(scroll.scroll_height() - scroll.client_height());
        self.top = if Self::exact(shown) {
            at / ROW_PX
        } else if range > 0.0 {
            at / range * self.max_top(shown)
        } else {
            0.0
        };
        self.top = self.top.clamp(0.0, self.max_top(shown));
        true
    }

    /// A click on a row selects it and its span; on a fold mark, folds.
    fn click(
        &mut self,
        ctx: &Context<Self>,
        listing: &Built,
        shown: &Shown,
        e: &MouseEvent,
    ) -> bool {
        let Some(target) = e.target().and_then(|t| t.dyn_into::<Element>().ok()) else {
            return false;
        };
        let Some(row) = target
            .closest("[data-row]")
            .ok()
            .flatten()
            .and_then(|r| r.get_attribute("data-row"))
            .and_then(|r| r.parse::<usize>().ok())
        else {
            return false;
        };
        if target.get_attribute("class").as_deref() == Some("fold") {
            self.toggle_fold(ctx, listing, row);
            let _ = shown;
            return true;
        }
        self.select(ctx, listing, row);
        true
    }

    /// Folds or unfolds row `row`.
    fn toggle_fold(&mut self, ctx: &Context<Self>, built: &Built, row: usize) {
        let Ok(listing) = built.as_ref() else { return };
        if self.folds.remove(&row).is_none() {
            let info = listing.info(&ctx.props().loaded.trace, row);
            if let (true, Some(last)) = (folds(&info, row), info.closed_by) {
                self.folds.insert(row, last);
            }
        }
    }

    /// Selects row `row` and its span.
    fn select(&mut self, ctx: &Context<Self>, built: &Built, row: usize) {
        let Ok(listing) = built.as_ref() else { return };
        self.cursor = Some(row);
        let info = listing.info(&ctx.props().loaded.trace, row);
        if let (Some(thread), Some(span)) = (info.thread, info.span) {
            ctx.props().on_select.emit(SpanRef {
                thread: thread as usize,
                span,
            });
        }
        if let Some(event) = listing.event_of_row(row) {
            ctx.props().on_event.emit(event);
        }
    }

    /// Marks and scrolls to the selected event's row (SELogger).
    fn reveal_event(&mut self, props: &Props) {
        let (Some(event), Some(built)) = (props.event, props.built.as_ref()) else {
            return;
        };
        let Ok(listing) = built.0.as_ref() else {
            return;
        };
        if let Some(row) = listing.row_of_event(event) {
            self.cursor = Some(row);
            self.show_row(props, row);
        }
    }

    /// Selects row `row`, opening the folds that hide it and scrolling it
    /// into view.
    fn go_to(&mut self, ctx: &Context<Self>, built: &Built, row: usize) {
        self.show_row(ctx.props(), row);
        self.select(ctx, built, row);
    }

    /// Opens the folds hiding `row` and scrolls it into view.
    fn show_row(&mut self, props: &Props, row: usize) {
        for fold in folds_hiding(&self.folds, row) {
            self.folds.remove(&fold);
        }
        let Some((_, shown)) = self.shown(props) else {
            return;
        };
        let Some(place) = shown.place_of(row) else {
            return;
        };
        let place = place as f64;
        let window = self.visible.max(2) as f64;
        if place < self.top || place > self.top + window - 2.0 {
            self.top = (place - (window / 2.0).floor()).clamp(0.0, self.max_top(&shown));
        }
    }

    /// Scrolls to the row of the span selected elsewhere (the timeline).
    fn reveal_selected(&mut self, props: &Props) {
        let (Some(selected), Some(built)) = (props.selected, props.built.as_ref()) else {
            return;
        };
        let Ok(listing) = built.0.as_ref() else {
            return;
        };
        let trace = &props.loaded.trace;
        let current = self.cursor.map(|row| listing.info(trace, row));
        if current.is_some_and(|i| {
            i.thread == Some(selected.thread as u32) && i.span == Some(selected.span)
        }) {
            return;
        }
        if let Some(row) = listing.row_of_span(trace, selected.thread as u32, selected.span) {
            self.cursor = Some(row);
            self.show_row(props, row);
        }
    }

    /// Keys on the focused list: ↑ ↓ PgUp PgDn Home End move the selection,
    /// ← folds and → unfolds the selected row.
    fn key(
        &mut self,
        ctx: &Context<Self>,
        built: &Built,
        shown: &Shown,
        e: &KeyboardEvent,
    ) -> bool {
        let at = self
            .cursor
            .and_then(|row| shown.place_of(row))
            .unwrap_or(self.top as usize);
        let page = self.visible.saturating_sub(1).max(1);
        let last = shown.len().saturating_sub(1);
        let to = match e.key().as_str() {
            "ArrowDown" => at.saturating_add(1).min(last),
            "ArrowUp" => at.saturating_sub(1),
            "PageDown" => at.saturating_add(page).min(last),
            "PageUp" => at.saturating_sub(page),
            "Home" => 0,
            "End" => last,
            "ArrowLeft" | "ArrowRight" => {
                e.prevent_default();
                let Some(row) = self.cursor else { return false };
                let folded = self.folds.contains_key(&row);
                if folded == (e.key() == "ArrowRight") {
                    self.toggle_fold(ctx, built, row);
                }
                return true;
            }
            _ => return false,
        };
        e.prevent_default();
        let Some(row) = shown.row_at(to) else {
            return false;
        };
        self.go_to(ctx, built, row);
        true
    }
}
