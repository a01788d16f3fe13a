//! How the page is laid out: the top bar (brand, what is open, the view
//! controls, the compare panel, the open buttons) above the body (welcome,
//! progress, or the narrowing bar above the workspace with the timeline, the
//! aggregated views and the sidebar), all drawn from the [`PageState`].

use super::page::{PageState, Phase};
use super::{App, Gathering, Msg};
use crate::loading::dropped::Dropped;
use crate::loading::picked;
use crate::ui::activity::ActivityView;
use crate::ui::aggregate::Aggregate;
use crate::ui::compare::ComparePanel;
use crate::ui::components::ComponentsView;
use crate::ui::flamechart::publish::OnReport;
use crate::ui::flamechart::FlameChart;
use crate::ui::header::ViewControls;
use crate::ui::help::Help;
use crate::ui::listing::{BuiltRef, ListingView};
use crate::ui::narrow::NarrowBar;
use crate::ui::progress::ProgressView;
use crate::ui::sidebar::Sidebar;
use crate::ui::welcome::Welcome;
use crate::view_model::Loaded;
use crate::view_model::{Available, View, ViewChange};
use std::rc::Rc;
use web_sys::{DragEvent, HtmlInputElement};
use yew::html::Scope;
use yew::prelude::*;

/// The whole page.
pub fn page(page: &PageState, dragging: bool, reports: Reports<'_>, link: &Scope<App>) -> Html {
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
    let phase = page.phase();
    let source = match &phase {
        Phase::Ready(_) | Phase::Loading(_) => page.main.label.as_str(),
        _ => "",
    };
    html! {
        <div id="dropzone" class={classes!("app", dragging.then_some("dragging"))}
            ondragenter={drag_over.clone()} ondragover={drag_over} ondragleave={drag_leave} ondrop={drop}>
            <header class="topbar">
                <a class="brand" href="./" title="flamedrop: back to the start page">
                    <img class="logo" src="icons/flamedrop.svg" alt="" /><span class="brand-name">{ "flamedrop" }</span>
                </a>
                <span class="source" title={source.to_owned()}>{ source }</span>
                if matches!(phase, Phase::Ready(_)) { { controls(page, link) } }
                <nav class="actions">
                    <label for="open-folder" class="button">{ "Open folder" }</label>
                    <label for="open-files" class="button">{ "Open files" }</label>
                </nav>
                <input id="open-files" class="visually-hidden" type="file" multiple=true onchange={picked.clone()} />
                <input id="open-folder" class="visually-hidden" type="file" webkitdirectory=true multiple=true onchange={picked} />
            </header>
            <main class="main">{ body(page, &phase, reports, link) }</main>
            if page.help { <Help on_close={link.callback(|_| Msg::Help(false))} /> }
            <div class="drop-overlay" aria-hidden="true">{ "Drop to open — files stay on this computer" }</div>
        </div>
    }
}

/// The header's view controls and the compare panel, while a trace is shown.
fn controls(page: &PageState, link: &Scope<App>) -> Html {
    let c = &page.compare;
    html! {
        <>
            <ViewControls view={page.views.view} search={page.views.search.clone()} count={page.count.clone()}
                on_change={link.callback(Msg::Views)} on_theme={link.callback(|_| Msg::ToggleTheme)}
                on_help={link.callback(|_| Msg::Help(true))} on_export={link.callback(Msg::Export)}
                on_save={link.callback(|_| Msg::SaveAnalysis)}
                by_group={page.colouring.by_group} on_colour={link.callback(|_| Msg::ToggleColour)}
                next_theme={if page.colouring.dark { "light" } else { "dark" }}
                available={page.trace.as_ref().map(|l| Available::of(&l.trace, c.compared.is_some())).unwrap_or_default()} />
            <ComparePanel open={c.panel}
                label={c.compared.as_ref().map(|l| l.new.label.clone())}
                progress={c.slot.progress.clone()} error={c.error.clone()}
                on_request={link.callback(Msg::Compare)} />
        </>
    }
}

/// Where the timeline's reports go: the trace's chart's, and the partial
/// picture's while loading.
#[derive(Clone, Copy)]
pub struct Reports<'a> {
    pub chart: &'a OnReport,
    pub partial: &'a OnReport,
}

/// Below the top bar: what the phase calls for.
fn body(page: &PageState, phase: &Phase, reports: Reports<'_>, link: &Scope<App>) -> Html {
    let on_report = reports.chart;
    let on_demo = link.callback(|name: &'static str| Msg::Gather(Gathering::Demo(name)));
    let on_load_anyway = page
        .main
        .too_big
        .is_some()
        .then(|| link.callback(|_| Msg::LoadPart(Default::default())));
    let part = page.main.estimate.clone().map(|estimate| {
        let on_load = link.callback(Msg::LoadPart);
        (estimate, page.main.limit, on_load)
    });
    match phase {
        Phase::Idle => html! { <Welcome error={None::<String>} {on_demo} /> },
        Phase::Error(message) => html! {
            <Welcome error={Some(message.clone())} {on_demo} {on_load_anyway} {part} />
        },
        Phase::Loading(progress) => match &page.main.partial {
            Some(partial) => crate::ui::partial::view(
                page.main.load(),
                progress,
                partial,
                page.colouring,
                reports.partial,
                link.callback(|_| Msg::Cancel),
            ),
            None => html! {
                <ProgressView progress={progress.clone()} on_cancel={link.callback(|_| Msg::Cancel)} />
            },
        },
        Phase::Ready(loaded) => html! {
            <>
                { narrow_bar(page, link) }
                { workspace(page, loaded, on_report, link) }
            </>
        },
    }
}

/// The filter box, the breadcrumb of the stack and its notes.
fn narrow_bar(page: &PageState, link: &Scope<App>) -> Html {
    let n = &page.narrowing;
    let labels = |s: &flamedrop_core::analysis::transform::Stack| {
        s.steps.iter().map(|s| s.label()).collect::<Vec<_>>()
    };
    html! {
        <NarrowBar steps={labels(&n.applied())} busy={n.busy.as_ref().map(labels)}
            error={n.error.clone()} notes={n.notes().cloned().collect::<Vec<_>>()}
            timing={n.timing.filter(|t| t.steps > 0).map(|t| (t.apply_ms, t.index_ms))}
            on_push={link.callback(Msg::PushStep)} on_pop={link.callback(Msg::PopTo)} />
    }
}

/// The Listing view of the trace on screen.
fn listing(page: &PageState, loaded: &Rc<Loaded>, link: &Scope<App>) -> Html {
    let views = &page.views;
    let built = loaded.listing(&views.listing).map(BuiltRef);
    let on_select = link.batch_callback(|span| vec![Msg::Select(Some(span)), Msg::Zoom(span)]);
    html! {
        <ListingView loaded={loaded.clone()} {built} options={views.listing.clone()} range={views.range}
            selected={page.selected} search={views.search.clone()} jump={page.listing.jump}
            colouring={page.colouring} {on_select} on_change={link.callback(Msg::Views)}
            event={page.event} on_event={link.callback(|e| Msg::SelectEvent(Some(e)))} />
    }
}

/// The timeline, the aggregated views and the sidebar.
fn workspace(
    page: &PageState,
    loaded: &Rc<Loaded>,
    on_report: &OnReport,
    link: &Scope<App>,
) -> Html {
    let views = &page.views;
    html! {
        <div class="workspace" data-view={views.view.name()}>
            <FlameChart key={format!("{}.{}", page.main.load(), page.shown_version)} loaded={loaded.clone()} selected={page.selected}
                on_select={link.callback(Msg::Select)} focus={page.focus}
                hidden={views.view != View::Timeline} highlight={page.highlight.clone()} marks={page.marks.clone()}
                colouring={page.colouring} on_report={on_report.clone()} range={views.range}
                on_range={link.callback(|r| Msg::Views(ViewChange::Range(r)))}
                lanes={views.lanes.clone()} on_lanes={link.callback(|l| Msg::Views(ViewChange::Lanes(l)))}
                on_step={link.callback(Msg::PushStep)} window={page.timeline_window} />
            { view_body(page, loaded, link) }
            <Sidebar loaded={loaded.clone()} selected={page.selected} tab={page.tab}
                on_tab={link.callback(Msg::Tab)} on_zoom={link.callback(Msg::Zoom)}
                highlight={page.highlight.as_ref().map(|h| h.field.clone())}
                on_highlight={link.callback(Msg::Highlight)} />
        </div>
    }
}

/// The open view's body beside the timeline (which is always there, hidden
/// when another view is open).
fn view_body(page: &PageState, loaded: &Rc<Loaded>, link: &Scope<App>) -> Html {
    let views = &page.views;
    match views.view {
        View::Timeline => html! {},
        View::Listing => listing(page, loaded, link),
        View::Memory => html! {
            <crate::ui::memory::MemoryView loaded={loaded.clone()} state={views.clone()}
                colouring={page.colouring} on_change={link.callback(Msg::Views)} />
        },
        View::Files | View::Network | View::Threads => html! {
            <ActivityView loaded={loaded.clone()} view={views.view} range={views.range}
                on_range={link.callback(|r| Msg::Views(ViewChange::Range(r)))} colouring={page.colouring} />
        },
        View::Components => html! {
            <ComponentsView loaded={loaded.clone()} range={views.range} colouring={page.colouring} />
        },
        View::Values => html! {
            <crate::ui::values::ValuesView loaded={loaded.clone()} event={page.event}
                colouring={page.colouring} on_event={link.callback(Msg::SelectEvent)}
                location={page.values_at.clone()} on_location={link.callback(Msg::ValuesAt)}
                on_step={link.callback(Msg::Step)} />
        },
        View::Source => html! {
            <crate::ui::source_view::SourceView loaded={loaded.clone()} selected={page.selected}
                event={page.event} on_event={link.callback(Msg::SelectEvent)} />
        },
        View::FlameGraph | View::Sandwich | View::CallTree | View::Diff => html! {
            <Aggregate loaded={loaded.clone()} state={views.clone()} marks={page.marks.clone()}
                compare={page.compare.compared.clone()} colouring={page.colouring}
                on_change={link.callback(Msg::Views)} reveal={page.reveal}
                on_step={link.callback(Msg::PushStep)} />
        },
    }
}
