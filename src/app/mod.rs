//! The app: the root component. It owns the page's state ([`PageState`]),
//! turns messages from the components, the loads and the keyboard into
//! changes of it, lays the page out ([`layout`]) and publishes what
//! `window.flamedrop` reads.
//!
//! `#dropzone` is the whole page, so a trace can be dropped at any time.

mod events;
pub mod export;
pub mod keys;
mod layout;
pub mod listing;
mod load;
mod narrow;
pub mod page;
mod save;

use crate::browser;
use crate::loading::client::start_spares;
use crate::loading::dropped::Dropped;
use crate::loading::launched::{self, Launched};
use crate::loading::parts::workers_override;
use crate::loading::slot::{Limits, LoadMsg};
use crate::loading::{budget, demos, served, InputFile};
use crate::script_api::narrow::Settle;
use crate::script_api::{self, Published};
use crate::timeline::SpanRef;
use crate::ui::compare::CompareRequest;
use crate::ui::flamechart::publish::{ChartReport, OnReport};
use crate::ui::sidebar::Tab;
use crate::view_model::highlight::Highlight;
use crate::view_model::{Loaded, ViewChange, ViewState};
use flamedrop_core::analysis::transform::{Stack, Step};
use gloo::events::EventListener;
use page::PageState;
use std::rc::Rc;
use yew::prelude::*;

/// Mounts the app on `#app` (or the body when the page has no such element).
pub fn mount() {
    let root = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("app"));
    match root {
        Some(root) => {
            root.set_inner_html(""); // the static "loading…" text
            yew::Renderer::<App>::with_root(root).render();
        }
        None => {
            yew::Renderer::<App>::new().render();
        }
    }
}

pub enum Msg {
    /// Start opening files that `gather` will produce.
    Gather(Gathering),
    /// A message about the load in one slot.
    Load(Slot, LoadMsg),
    Cancel,
    /// Decode the files held back as too big: only this part of them (the
    /// part dialog), or all of them anyway (the default selection).
    LoadPart(crate::loading::part::Part),
    Select(Option<SpanRef>),
    /// Select an event of the event log (SELogger): stepping, the Values
    /// and Source views.
    SelectEvent(Option<u32>),
    /// Step from the selected event (a key, a button, a script).
    Step(crate::view_model::values::StepKind),
    /// The location the Values view shows (none: the picker only).
    ValuesAt(Option<flamedrop_core::analysis::values::Location>),
    Zoom(SpanRef),
    Tab(Tab),
    /// Highlight the spans carrying a detail chosen in a table (or clear).
    Highlight(Option<flamedrop_core::model::Field>),
    DragOver(bool),
    /// A change to the views' state (from the header, a view, or a script).
    Views(ViewChange),
    ToggleTheme,
    /// The OS switched between its light and dark scheme.
    OsTheme(bool),
    Help(bool),
    /// A key pressed outside text fields.
    Key(String),
    /// Save the open view as `png` or `svg`.
    Export(&'static str),
    /// Colour by name or by module / library / class.
    ToggleColour,
    /// Download the analysis on screen as a `.flamedrop` file.
    SaveAnalysis,
    /// From the compare panel.
    Compare(CompareRequest),
    /// Push one narrowing step onto the stack (from the filter bar, a
    /// node's menu or a key).
    PushStep(Step),
    /// Keep the first N steps of the stack (a breadcrumb item; 0: the whole
    /// trace).
    PopTo(usize),
    /// Replace the whole stack (`flamedrop.narrow(text)`), telling the
    /// script how it ended.
    SetStack(Stack, Option<Settle>),
    /// A narrowing ended: (request number, its stack, the result or why it
    /// failed).
    Narrowed(u32, Stack, Box<Result<narrow::Outcome, String>>),
    /// The comparison trace is narrowed: (request number, result).
    ComparisonNarrowed(u32, Result<Rc<Loaded>, String>),
    /// The listing's rows are built: (request number, how it went).
    ListingBuilt(u32, crate::view_model::listing::ListingTiming),
}

/// Which load a message is about.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// The trace on screen.
    Main,
    /// The trace to compare with.
    Compare,
}

/// Where a load's files come from.
pub enum Gathering {
    Picked(Vec<InputFile>),
    Dropped(Dropped),
    Demo(&'static str),
    /// The trace `flamedrop open` serves, by its token.
    Served(String),
    /// Files the OS opened the installed app with (the Launch Queue).
    Launched(Launched),
}

pub struct App {
    page: PageState,
    dragging: bool,
    limits: Limits,
    /// What `window.flamedrop` reads; the app is its only writer.
    published: Published,
    /// Where the timeline's reports go: into `published`.
    on_report: OnReport,
    /// Where the partial picture's timeline reports go (its draws).
    on_partial: OnReport,
    _keys: Option<EventListener>,
    /// Follows the OS's colour scheme until the toggle chooses a theme.
    _os_theme: Option<EventListener>,
    /// The toggle chose the theme: the OS's changes no longer apply.
    theme_chosen: bool,
    /// Scripts waiting on the narrowing under way.
    settles: Vec<Settle>,
}

impl Component for App {
    type Message = Msg;
    type Properties = ();

    fn create(ctx: &Context<Self>) -> Self {
        start_spares();
        crate::loading::preview::read_query();
        warm_chart_text();
        launched::listen(ctx.link().callback(|l| Msg::Gather(Gathering::Launched(l))));
        if let Some(name) = browser::query_param("demo") {
            ctx.link().send_message(demo_request(&name));
        } else if let Some(token) = served::token() {
            served::keep_alive(&token);
            ctx.link()
                .send_message(Msg::Gather(Gathering::Served(token)));
        }
        let published = Published::default();
        App {
            page: PageState::new(
                ViewState::from_fragment(&browser::fragment()),
                browser::os_prefers_dark(),
            ),
            dragging: false,
            limits: Limits {
                budget: budget::from_url(),
                watchdog_ms: budget::watchdog_override_ms(),
                workers: workers_override(),
            },
            on_report: chart_reports(&published),
            on_partial: partial_reports(&published),
            published,
            _keys: keys::listen(ctx.link().callback(Msg::Key)),
            _os_theme: browser::on_os_theme(ctx.link().callback(Msg::OsTheme)),
            theme_chosen: false,
            settles: Vec::new(),
        }
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        let render = self.apply(ctx, msg) | self.ensure_listing(ctx);
        self.page.publish(&mut self.published.borrow_mut());
        render
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let reports = layout::Reports {
            chart: &self.on_report,
            partial: &self.on_partial,
        };
        layout::page(&self.page, self.dragging, reports, ctx.link())
    }

    fn rendered(&mut self, ctx: &Context<Self>, first_render: bool) {
        let phase = self.page.phase();
        if let Some(body) = browser::body() {
            let _ = body.dataset().set("state", phase.name());
            let partial =
                matches!(phase, page::Phase::Loading(_)) && self.page.main.partial.is_some();
            let _ = body
                .dataset()
                .set("partial", if partial { "yes" } else { "no" });
        }
        if let Some(document) = web_sys::window().and_then(|w| w.document()) {
            match &phase {
                page::Phase::Ready(loaded) => {
                    document.set_title(&format!("{} — flamedrop", loaded.label))
                }
                _ => document.set_title("flamedrop"),
            }
        }
        if first_render {
            let mut snapshot = self.published.borrow_mut();
            snapshot.commands = Some(ctx.link().callback(Msg::Views));
            snapshot.narrow_command = Some(
                ctx.link()
                    .callback(|(stack, settle)| Msg::SetStack(stack, Some(settle))),
            );
            snapshot.event_command = Some(ctx.link().callback(|command| match command {
                script_api::values::EventCommand::Select(event) => Msg::SelectEvent(event),
                script_api::values::EventCommand::Step(kind) => Msg::Step(kind),
                script_api::values::EventCommand::ValuesAt(at) => Msg::ValuesAt(at),
            }));
            self.page.publish(&mut snapshot);
            drop(snapshot);
            script_api::install(&self.published);
        }
    }
}

impl App {
    /// Applies one message to the page's state; true to re-render.
    fn apply(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        let page = &mut self.page;
        match msg {
            Msg::Gather(source) => {
                self.dragging = false;
                self.gather(ctx, source);
            }
            Msg::Load(slot, msg) => return self.on_load(ctx, slot, msg),
            Msg::Cancel => self.cancel(),
            Msg::LoadPart(part) => return self.load_part(ctx, part),
            Msg::Compare(request) => return self.on_compare(ctx, request),
            Msg::Select(span) => {
                events::follow_span(page, span);
                page.selected = span;
                if span.is_some() {
                    page.tab = Tab::Details;
                }
            }
            Msg::SelectEvent(_) | Msg::Step(_) | Msg::ValuesAt(_) => {
                return events::apply(page, msg)
            }
            Msg::Zoom(span) => {
                let n = page.focus.map_or(0, |(n, _)| n + 1);
                page.focus = Some((n, span));
            }
            Msg::Tab(tab) => page.tab = tab,
            Msg::Highlight(field) => {
                page.highlight = match (&page.trace, field) {
                    (Some(loaded), Some(field)) => {
                        Some(Rc::new(Highlight::new(&loaded.trace, field)))
                    }
                    _ => None,
                };
            }
            Msg::DragOver(over) => {
                let changed = self.dragging != over;
                self.dragging = over;
                return changed;
            }
            Msg::Views(change) => {
                let search = matches!(change, ViewChange::Search(_));
                page.views.apply(change);
                if search {
                    page.refresh_search();
                }
                browser::set_fragment(&page.views.to_fragment());
            }
            Msg::OsTheme(dark) => {
                if self.theme_chosen || page.colouring.dark == dark {
                    return false;
                }
                page.colouring.dark = dark;
            }
            Msg::ToggleTheme => {
                self.theme_chosen = true;
                let dark = !page.colouring.dark;
                page.colouring.dark = dark;
                browser::choose_theme(if dark { "dark" } else { "light" });
            }
            Msg::ToggleColour => {
                page.colouring.by_group = !page.colouring.by_group;
            }
            Msg::Help(open) => page.help = open,
            Msg::Key(key) => return keys::on_key(page, ctx.link(), &key),
            Msg::PushStep(step) => return self.push_step(ctx, step),
            Msg::PopTo(keep) => return self.pop_to(ctx, keep),
            Msg::SetStack(stack, settle) => return self.narrow_to(ctx, stack, settle),
            Msg::Narrowed(n, stack, outcome) => return self.narrowed(ctx, n, stack, *outcome),
            Msg::ComparisonNarrowed(n, outcome) => return self.comparison_narrowed(n, outcome),
            Msg::ListingBuilt(n, timing) => return self.listing_built(n, timing),
            Msg::SaveAnalysis => return self.save_analysis(),
            Msg::Export(kind) => {
                if let Err(e) = export::download(page, &self.published.borrow(), kind) {
                    gloo::console::warn!(format!("flamedrop: export: {e}"));
                }
                return false;
            }
        }
        true
    }
}

/// Keeps what the timeline reports in the snapshot scripts and the SVG
/// export read.
fn chart_reports(published: &Published) -> OnReport {
    let published = published.clone();
    OnReport(Rc::new(move |report| {
        let mut snapshot = published.borrow_mut();
        match report {
            ChartReport::Window(model) => snapshot.remember_chart(model),
            ChartReport::FirstDraw => snapshot.first_draw(),
            ChartReport::Lanes(lanes, counters) => snapshot.set_lanes(lanes, counters),
        }
    }))
}

/// Counts the partial picture's draws in the snapshot (the timings).
fn partial_reports(published: &Published) -> OnReport {
    let published = published.clone();
    OnReport(Rc::new(move |report| {
        if let ChartReport::FirstDraw = report {
            published.borrow_mut().partial_draw();
        }
    }))
}

/// The message that opens the demo the page's URL names (or says there is
/// no such demo).
fn demo_request(name: &str) -> Msg {
    match demos::find(name) {
        Some(demo) => Msg::Gather(Gathering::Demo(demo.name)),
        None => {
            let known: Vec<&str> = demos::DEMOS.iter().map(|d| d.name).collect();
            let error = format!(
                "there is no demo called \"{name}\" (try {})",
                known.join(", ")
            );
            Msg::Load(Slot::Main, LoadMsg::Opened(0, Err(error)))
        }
    }
}

/// Once the chart's font has loaded, has it drawn once off screen (see
/// `render::paint::warm_text`), while the page waits for a trace.
fn warm_chart_text() {
    crate::render::paint::read_strips_query();
    wasm_bindgen_futures::spawn_local(async {
        let family = browser::CANVAS_FONT_FAMILY;
        browser::load_font(&format!("11px '{family}'")).await;
        browser::load_font(&format!("600 11px '{family}'")).await;
        crate::render::paint::warm_text();
    });
}
