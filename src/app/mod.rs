//! The app: the page's phases (idle → loading → ready or error), where files
//! come from, the decoding job, and how the views are laid out.
//!
//! `#dropzone` is the whole page, so a trace can be dropped at any time. A
//! load gets a number; messages from an older load (a cancelled worker, a
//! slow folder walk) are ignored.

#[path = "app_compare.rs"]
mod compare;

use crate::browser;
use crate::chart::SpanRef;
use crate::components::aggregate::Aggregate;
use crate::components::flamechart::FlameChart;
use crate::components::header::ViewControls;
use crate::components::help::Help;
use crate::components::progress::ProgressView;
use crate::components::sidebar::{Sidebar, Tab};
use crate::components::welcome::Welcome;
use crate::highlight::Highlight;
use crate::js_api::{self, LoadCost};
use crate::loading::dropped::Dropped;
use crate::loading::unpack::unpack;
use crate::loading::{budget, demos, picked, InputFile, Opened};
use crate::state::{Loaded, Phase, Progress};
use crate::views::{View, ViewChange, ViewState};
use crate::worker::client::{silence_allowance_ms, start_spares};
use crate::worker::parts::{workers_for, workers_override, Decoding, Step};
use crate::worker::protocol::WorkerEvent;
use flamedrop_core::analysis::search::{count, MatchCount, Matcher};
use gloo::events::EventListener;
use std::future::Future;
use std::rc::Rc;
use web_sys::{DragEvent, HtmlInputElement};
use yew::prelude::*;

/// How long after a trace is shown the page starts the workers for the next
/// load (so their start-up does not compete with the first frames).
const SPARES_AFTER_MS: u32 = 3_000;

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
    /// The files of load `id` are known.
    Opened(u32, Result<Opened, String>),
    /// Load `id`'s worker for part `part` said something.
    Worker {
        id: u32,
        part: u32,
        event: WorkerEvent,
    },
    /// The trace of load `id` is ready to show (or could not be unpacked).
    Unpacked(u32, Result<Rc<Loaded>, String>, LoadCost),
    Cancel,
    /// Decode the files held back as too big, anyway.
    LoadAnyway,
    Select(Option<SpanRef>),
    Zoom(SpanRef),
    Tab(Tab),
    /// Highlight the spans carrying a detail chosen in a table (or clear).
    Highlight(Option<flamedrop_core::model::Field>),
    DragOver(bool),
    /// A change to the views' state (from the header, a view, or a script).
    Views(ViewChange),
    ToggleTheme,
    Help(bool),
    /// A key pressed outside text fields.
    Key(String),
    /// Save the open view as `png` or `svg`.
    Export(&'static str),
    /// Colour by name or by module / library / class.
    ToggleColour,
    /// The trace to compare with (panel, load, removal).
    Compare(compare::CompareMsg),
}

/// Where a load's files come from.
pub enum Gathering {
    Picked(Vec<InputFile>),
    Dropped(Dropped),
    Demo(&'static str),
}

pub struct App {
    phase: Phase,
    load: u32,
    job: Option<Decoding>,
    label: String,
    selected: Option<SpanRef>,
    focus: Option<(u32, SpanRef)>,
    tab: Tab,
    dragging: bool,
    highlight: Option<Rc<Highlight>>,
    /// View, source, function, search, range: mirrored in the URL fragment.
    views: ViewState,
    /// Per string id: matches the search.
    marks: Option<Rc<Vec<bool>>>,
    count: Option<Result<MatchCount, String>>,
    help: bool,
    /// Bumped when the theme changes, so canvases repaint.
    generation: u32,
    /// The last search jump in a tree view: (node, bump).
    reveal: Option<(u32, u32)>,
    _keys: Option<EventListener>,
    /// Files held back because they looked too big for the tab.
    too_big: Option<Opened>,
    /// Input size above which the page asks before decoding.
    size_limit: f64,
    /// The watchdog's allowance when the page's URL sets one.
    watchdog_ms: Option<f64>,
    /// Decoding workers when the page's URL sets how many.
    workers: Option<u32>,
    /// The trace to compare with, and its load.
    compare: compare::Comparing,
}

impl Component for App {
    type Message = Msg;
    type Properties = ();

    fn create(ctx: &Context<Self>) -> Self {
        start_spares();
        warm_chart_text();
        if let Some(name) = browser::query_param("demo") {
            match demos::find(&name) {
                Some(demo) => ctx
                    .link()
                    .send_message(Msg::Gather(Gathering::Demo(demo.name))),
                None => {
                    let known: Vec<&str> = demos::DEMOS.iter().map(|d| d.name).collect();
                    let error = format!(
                        "there is no demo called \"{name}\" (try {})",
                        known.join(", ")
                    );
                    ctx.link().send_message(Msg::Opened(0, Err(error)));
                }
            }
        }
        App {
            phase: Phase::Idle,
            load: 0,
            job: None,
            label: String::new(),
            selected: None,
            focus: None,
            tab: Tab::Summary,
            dragging: false,
            highlight: None,
            views: ViewState::from_fragment(&browser::fragment()),
            marks: None,
            count: None,
            help: false,
            generation: 0,
            reveal: None,
            _keys: crate::views_keys::listen(ctx.link().callback(Msg::Key)),
            too_big: None,
            size_limit: budget::limit_bytes(),
            watchdog_ms: budget::watchdog_override_ms(),
            workers: workers_override(),
            compare: compare::Comparing::default(),
        }
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::Gather(source) => {
                self.dragging = false;
                match source {
                    Gathering::Picked(files) => {
                        browser::set_query("");
                        self.begin(ctx, None, async move { Ok(files) });
                    }
                    Gathering::Dropped(dropped) => {
                        browser::set_query("");
                        self.begin(ctx, None, dropped.collect());
                    }
                    Gathering::Demo(name) => {
                        browser::set_query(&format!("demo={name}"));
                        let label = format!("demo {name}");
                        self.begin(ctx, Some(label), async move {
                            match demos::find(name) {
                                Some(demo) => demos::fetch(demo).await,
                                None => Err(format!("there is no demo called \"{name}\"")),
                            }
                        });
                    }
                }
                true
            }
            Msg::Opened(id, opened) if id == self.load => {
                match opened {
                    Ok(opened) if opened.size() > self.size_limit => {
                        let message =
                            budget::too_big_message(&opened.label, opened.size(), self.size_limit);
                        self.fail(message);
                        self.too_big = Some(opened);
                    }
                    Ok(opened) => self.decode(ctx, opened),
                    Err(message) => self.fail(message),
                }
                true
            }
            Msg::LoadAnyway => {
                if let Some(opened) = self.too_big.take() {
                    self.decode(ctx, opened);
                }
                true
            }
            Msg::Worker { id, part, event } if id == self.load => self.on_worker(ctx, part, event),
            Msg::Unpacked(id, loaded, cost) if id == self.load => {
                match loaded {
                    Ok(loaded) => {
                        self.views.source = self.views.source.or_available(&loaded.trace);
                        js_api::set_loaded(Some(loaded.clone()), Some(cost));
                        self.phase = Phase::Ready(loaded);
                        self.refresh_search();
                        self.publish_views(ctx);
                        // Workers for the next load, once the first frames are drawn.
                        gloo::timers::callback::Timeout::new(SPARES_AFTER_MS, start_spares)
                            .forget();
                    }
                    Err(message) => self.fail(message),
                }
                true
            }
            Msg::Opened(..) | Msg::Worker { .. } | Msg::Unpacked(..) => false,
            Msg::Cancel => {
                self.too_big = None;
                self.load += 1;
                self.job = None;
                self.phase = Phase::Idle;
                js_api::set_loaded(None, None);
                start_spares();
                true
            }
            Msg::Select(span) => {
                self.selected = span;
                if span.is_some() {
                    self.tab = Tab::Details;
                }
                true
            }
            Msg::Zoom(span) => {
                let n = self.focus.map_or(0, |(n, _)| n + 1);
                self.focus = Some((n, span));
                true
            }
            Msg::Tab(tab) => {
                self.tab = tab;
                true
            }
            Msg::Highlight(field) => {
                self.highlight = match (&self.phase, field) {
                    (Phase::Ready(loaded), Some(field)) => {
                        Some(Rc::new(Highlight::new(&loaded.trace, field)))
                    }
                    _ => None,
                };
                js_api::set_highlight(self.highlight.clone());
                true
            }
            Msg::DragOver(over) => {
                let changed = self.dragging != over;
                self.dragging = over;
                changed
            }
            Msg::Views(change) => {
                let search = matches!(change, ViewChange::Search(_));
                self.views.apply(change);
                if search {
                    self.refresh_search();
                }
                browser::set_fragment(&self.views.to_fragment());
                self.publish_views(ctx);
                true
            }
            Msg::ToggleTheme => {
                browser::choose_theme(if browser::prefers_dark() {
                    "light"
                } else {
                    "dark"
                });
                self.generation += 1;
                true
            }
            Msg::ToggleColour => {
                let by_group = !crate::canvas::colors::colour_by_group();
                crate::canvas::colors::set_colour_by_group(by_group);
                self.generation += 1;
                true
            }
            Msg::Help(open) => {
                self.help = open;
                true
            }
            Msg::Key(key) => self.on_key(ctx, &key),
            Msg::Compare(msg) => self.on_compare(ctx, msg),
            Msg::Export(kind) => {
                if let Phase::Ready(loaded) = &self.phase {
                    if let Err(e) = crate::export_view::download(loaded, &self.views, kind) {
                        gloo::console::warn!(format!("flamedrop: export: {e}"));
                    }
                }
                false
            }
        }
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let drag_over = link.callback(|e: DragEvent| {
            e.prevent_default(); // without this the browser never fires `drop`
            Msg::DragOver(true)
        });
        let drag_leave = link.batch_callback(|e: DragEvent| {
            // Leaving for a child element is not leaving the page.
            e.related_target().is_none().then_some(Msg::DragOver(false))
        });
        let drop = link.batch_callback(|e: DragEvent| {
            e.prevent_default();
            e.data_transfer()
                .map(|data| Msg::Gather(Gathering::Dropped(Dropped::capture(&data))))
        });
        let picked = link.batch_callback(|e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            let files = input.files().map(|list| picked::files_of(&list));
            input.set_value(""); // so picking the same folder again still fires `change`
            files.map(|f| Msg::Gather(Gathering::Picked(f)))
        });
        let source = match &self.phase {
            Phase::Ready(_) | Phase::Loading(_) => self.label.as_str(),
            _ => "",
        };
        html! {
            <div id="dropzone" class={classes!("app", self.dragging.then_some("dragging"))}
                ondragenter={drag_over.clone()} ondragover={drag_over} ondragleave={drag_leave} ondrop={drop}>
                <header class="topbar">
                    <a class="brand" href="./" title="flamedrop: back to the start page">
                        <img class="logo" src="icons/flamedrop.svg" alt="" />{ "flamedrop" }
                    </a>
                    <span class="source" title={source.to_owned()}>{ source }</span>
                    if matches!(self.phase, Phase::Ready(_)) {
                        <ViewControls view={self.views.view} search={self.views.search.clone()} count={self.count.clone()}
                            on_change={link.callback(Msg::Views)} on_theme={link.callback(|_| Msg::ToggleTheme)}
                            on_help={link.callback(|_| Msg::Help(true))} on_export={link.callback(Msg::Export)}
                            by_group={crate::canvas::colors::colour_by_group()} on_colour={link.callback(|_| Msg::ToggleColour)}
                            next_theme={if browser::prefers_dark() { "light" } else { "dark" }}
                            diff={self.compare.loaded.is_some()} />
                    }
                    if matches!(self.phase, Phase::Ready(_)) {
                        <crate::components::compare::ComparePanel open={self.compare.panel}
                            label={self.compare.loaded.as_ref().map(|l| l.label.clone())}
                            progress={self.compare.progress.clone()} error={self.compare.error.clone()}
                            on_request={link.callback(|r| Msg::Compare(compare::CompareMsg::Request(r)))} />
                    }
                    <nav class="actions">
                        <label for="open-folder" class="button">{ "Open folder" }</label>
                        <label for="open-files" class="button">{ "Open files" }</label>
                    </nav>
                    <input id="open-files" class="visually-hidden" type="file" multiple=true onchange={picked.clone()} />
                    <input id="open-folder" class="visually-hidden" type="file" webkitdirectory=true multiple=true onchange={picked} />
                </header>
                <main class="main">{ self.body(ctx) }</main>
                if self.help { <Help on_close={link.callback(|_| Msg::Help(false))} /> }
                <div class="drop-overlay" aria-hidden="true">{ "Drop to open — files stay on this computer" }</div>
            </div>
        }
    }

    fn rendered(&mut self, _ctx: &Context<Self>, first_render: bool) {
        if let Some(body) = browser::body() {
            let _ = body.dataset().set("state", self.phase.name());
        }
        if let Some(document) = web_sys::window().and_then(|w| w.document()) {
            match &self.phase {
                Phase::Ready(loaded) => {
                    document.set_title(&format!("{} — flamedrop", loaded.label))
                }
                _ => document.set_title("flamedrop"),
            }
        }
        if first_render {
            js_api::install();
        }
    }
}

impl App {
    fn body(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let on_demo = link.callback(|name: &'static str| Msg::Gather(Gathering::Demo(name)));
        let on_load_anyway = self
            .too_big
            .is_some()
            .then(|| link.callback(|_| Msg::LoadAnyway));
        match &self.phase {
            Phase::Idle => html! { <Welcome error={None::<String>} {on_demo} /> },
            Phase::Error(message) => html! {
                <Welcome error={Some(message.clone())} {on_demo} {on_load_anyway} />
            },
            Phase::Loading(progress) => html! {
                <ProgressView progress={progress.clone()} on_cancel={link.callback(|_| Msg::Cancel)} />
            },
            Phase::Ready(loaded) => html! {
                <div class="workspace" data-view={self.views.view.name()}>
                    <FlameChart key={self.load} loaded={loaded.clone()} selected={self.selected}
                        on_select={link.callback(Msg::Select)} focus={self.focus}
                        hidden={self.views.view != View::Timeline} highlight={self.highlight.clone()} marks={self.marks.clone()}
                        generation={self.generation} range={self.views.range}
                        on_range={link.callback(|r| Msg::Views(ViewChange::Range(r)))}
                        lanes={self.views.lanes.clone()} on_lanes={link.callback(|l| Msg::Views(ViewChange::Lanes(l)))} />
                    if self.views.view != View::Timeline {
                        <Aggregate loaded={loaded.clone()} state={self.views.clone()} marks={self.marks.clone()}
                            compare={self.compare.loaded.clone()}
                            on_change={link.callback(Msg::Views)} reveal={self.reveal} generation={self.generation} />
                    }
                    <Sidebar loaded={loaded.clone()} selected={self.selected} tab={self.tab}
                        on_tab={link.callback(Msg::Tab)} on_zoom={link.callback(Msg::Zoom)}
                        highlight={self.highlight.as_ref().map(|h| h.field.clone())}
                        on_highlight={link.callback(Msg::Highlight)} />
                </div>
            },
        }
    }

    /// Starts load number `self.load + 1` from files that `gather` produces.
    fn begin(
        &mut self,
        ctx: &Context<Self>,
        label: Option<String>,
        gather: impl Future<Output = Result<Vec<InputFile>, String>> + 'static,
    ) {
        self.load += 1;
        self.job = None; // stops a load in progress
        self.too_big = None;
        self.selected = None;
        self.focus = None;
        self.tab = Tab::Summary;
        self.highlight = None;
        js_api::set_highlight(None);
        self.compare_clear(); // a comparison belongs to the trace it was opened against
        self.label = label.clone().unwrap_or_else(|| "files".to_owned());
        self.phase = Phase::Loading(Progress {
            label: self.label.clone(),
            read: 0.0,
            total: 0.0,
        });
        js_api::load_started();
        js_api::set_loaded(None, None);
        self.publish_views(ctx);
        let id = self.load;
        ctx.link().send_future(async move {
            Msg::Opened(id, gather.await.and_then(|files| Opened::new(files, label)))
        });
    }

    /// Hands the files to a new decoding worker.
    fn decode(&mut self, ctx: &Context<Self>, opened: Opened) {
        self.label = opened.label.clone();
        self.phase = Phase::Loading(Progress {
            label: opened.label.clone(),
            read: 0.0,
            total: opened.size(),
        });
        let id = self.load;
        let link = ctx.link().clone();
        let allowance = self
            .watchdog_ms
            .unwrap_or_else(|| silence_allowance_ms(opened.size()));
        let workers = workers_for(&opened.files, self.workers);
        match Decoding::start(opened.files, workers, allowance, move |part, event| {
            link.send_message(Msg::Worker { id, part, event })
        }) {
            Ok(job) => self.job = Some(job),
            Err(message) => self.fail(message),
        }
    }

    fn on_worker(&mut self, ctx: &Context<Self>, part: u32, event: WorkerEvent) -> bool {
        let Some(decoding) = self.job.as_mut() else {
            return false;
        };
        match decoding.on_event(part, event) {
            Step::Wait => false,
            Step::Progress { read, total } => {
                if let Phase::Loading(p) = &mut self.phase {
                    p.read = read;
                    p.total = total;
                }
                true
            }
            Step::Done {
                answers,
                worker_ms,
                phases,
            } => {
                self.job = None; // the workers' memory goes with them
                if let Phase::Loading(p) = &mut self.phase {
                    p.read = p.total; // the bar is full while the chart is prepared
                }
                let (id, label, started) = (self.load, self.label.clone(), browser::now());
                let parts = answers.len() as u32;
                ctx.link().send_future(async move {
                    let unpacked = unpack(answers, label).await;
                    let unpack_ms = browser::now() - started;
                    let (loaded, page) = match unpacked {
                        Ok((loaded, page)) => (Ok(Rc::new(loaded)), page),
                        Err(message) => (Err(message), Default::default()),
                    };
                    let cost = LoadCost {
                        worker_ms,
                        unpack_ms,
                        index_ms: page.index_ms,
                        parts,
                        phases: phases.into_iter().chain(page.phases).collect(),
                    };
                    Msg::Unpacked(id, loaded, cost)
                });
                true
            }
            Step::Failed(message) => {
                self.fail(message);
                true
            }
        }
    }

    fn fail(&mut self, message: String) {
        self.job = None;
        start_spares();
        gloo::console::warn!(format!("flamedrop: {message}"));
        js_api::set_loaded(None, None);
        self.phase = Phase::Error(message);
    }

    /// Recompiles the search against the trace on screen.
    fn refresh_search(&mut self) {
        self.reveal = None;
        let Phase::Ready(loaded) = &self.phase else {
            return;
        };
        match Matcher::parse(&self.views.search) {
            Ok(Some(m)) => {
                let marks = m.mark(&loaded.trace.strings);
                self.count = Some(Ok(count(&loaded.trace, &marks)));
                self.marks = Some(Rc::new(marks));
            }
            Ok(None) => {
                self.count = None;
                self.marks = None;
            }
            Err(e) => {
                self.count = Some(Err(e));
                self.marks = None;
            }
        }
    }

    /// Tells `window.flamedrop` the trace, the view state and where to send commands.
    fn publish_views(&self, ctx: &Context<Self>) {
        let loaded = match &self.phase {
            Phase::Ready(l) => Some(l.clone()),
            _ => None,
        };
        crate::js_views::publish(loaded, &self.views, ctx.link().callback(Msg::Views));
    }

    fn on_key(&mut self, ctx: &Context<Self>, key: &str) -> bool {
        let Phase::Ready(loaded) = &self.phase else {
            return false;
        };
        let loaded = loaded.clone();
        match key {
            "?" => self.help = !self.help,
            "Escape" if self.help => self.help = false,
            "n" | "N" => {
                let Some(marks) = self.marks.clone() else {
                    return false;
                };
                let jump = crate::views_keys::jump(
                    &loaded,
                    &self.views,
                    &marks,
                    self.selected,
                    self.reveal,
                    key == "n",
                );
                match jump {
                    crate::views_keys::Jump::Span(span) => {
                        ctx.link().send_message(Msg::Select(Some(span)));
                        ctx.link().send_message(Msg::Zoom(span));
                    }
                    crate::views_keys::Jump::Node(node) => {
                        let bump = self.reveal.map_or(0, |(_, b)| b + 1);
                        self.reveal = Some((node, bump));
                    }
                    crate::views_keys::Jump::Function(name) => {
                        ctx.link()
                            .send_message(Msg::Views(ViewChange::Function(Some(name))));
                    }
                    crate::views_keys::Jump::None => return false,
                }
            }
            "5" if self.compare.loaded.is_some() => {
                ctx.link()
                    .send_message(Msg::Views(ViewChange::View(View::Diff)));
                return false;
            }
            "1" | "2" | "3" | "4" => {
                let i = key.parse::<usize>().unwrap_or(1) - 1;
                if let Some(&v) = View::ALL.get(i) {
                    ctx.link().send_message(Msg::Views(ViewChange::View(v)));
                }
                return false;
            }
            _ => return false,
        }
        true
    }
}

/// Once the chart's font has loaded, has it drawn once off screen (see
/// `canvas::paint::warm_text`), while the page waits for a trace.
fn warm_chart_text() {
    wasm_bindgen_futures::spawn_local(async {
        let family = browser::CANVAS_FONT_FAMILY;
        browser::load_font(&format!("11px '{family}'")).await;
        browser::load_font(&format!("600 11px '{family}'")).await;
        crate::canvas::paint::warm_text();
    });
}
