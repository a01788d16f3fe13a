//! The Components view: time by component (library, module) as Scaler's
//! analyzer reports it — a sortable table per library (self, waiting,
//! inclusive, calls, local and global %), the caller → callee flows as a
//! diagram and a table, the serial vs parallel figures and a drill-down
//! icicle (process → thread → library → function). A thread picker and an
//! "other below" share choose what the analysis runs on; the ruler's range
//! (`ViewState::range`) limits it. The numbers are
//! `flamedrop_core::analysis::components`', the layouts
//! `view_model::components`'.

mod charts;
mod tables;

use crate::render::colors::Colouring;
use crate::view_model::components::{rows_of, total_wait, Choice, Column};
use crate::view_model::Loaded;
use charts::{FlowsChart, Icicle};
use flamedrop_core::analysis::components::{components, ComponentsReport};
use flamedrop_core::analysis::report::format_time;
use std::rc::Rc;
use tables::{LibraryTable, MatrixTable, SerialTable};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub loaded: Rc<Loaded>,
    /// The ruler's range (absolute timestamps), if one is chosen.
    pub range: Option<(i64, i64)>,
    #[prop_or_default]
    pub colouring: Colouring,
}

/// The view.
#[function_component(ComponentsView)]
pub fn components_view(props: &Props) -> Html {
    let choice = use_state(Choice::default);
    let sort = use_state(|| (Column::default(), false));
    let zoom = use_state(Vec::<usize>::new);
    let report = {
        let loaded = props.loaded.clone();
        use_memo(
            (
                Rc::as_ptr(&props.loaded) as usize,
                props.range,
                (*choice).clone(),
            ),
            move |(_, range, choice)| components(&loaded.trace, &choice.options(*range)),
        )
    };
    {
        // A new report is a new tree: its zoom path means nothing there.
        let zoom = zoom.clone();
        let key = (props.range, (*choice).clone());
        use_effect_with(key, move |_| zoom.set(Vec::new()));
    }
    let unit = report.time_unit.clone();
    let format = Callback::from(move |v: i64| format_time(v, &unit));
    let rows = rows_of(&report, choice.thread).to_vec();
    let on_sort = {
        let sort = sort.clone();
        Callback::from(move |c: Column| {
            let (old, reverse) = *sort;
            sort.set((c, if old == c { !reverse } else { false }));
        })
    };
    let dark = props.colouring.dark;
    html! {
        <section class="components" data-view="components" aria-label="Time by component">
            { toolbar(&props.loaded, &report, &choice, &format) }
            <div class="components-grid">
                <div class="components-column">
                <div class="components-panel libraries">
                    <h3>{ "Time per library" }<span class="legend">
                        <span class="swatch work"></span>{ "working" }
                        <span class="swatch wait"></span>{ "waiting" }</span></h3>
                    <LibraryTable rows={Rc::new(rows)} sort={*sort} {on_sort} format={format.clone()} />
                </div>
                <div class="components-panel serial">
                    <h3>{ "Serial vs parallel" }</h3>
                    <SerialTable report={report.clone()} format={format.clone()} />
                </div>
                </div>
                <div class="components-panel flows">
                    <h3>{ "Caller library → callee library" }</h3>
                    <FlowsChart matrix={Rc::new(report.matrix.clone())} {dark} format={format.clone()} />
                    <MatrixTable matrix={Rc::new(report.matrix.clone())} format={format.clone()} />
                </div>
                <div class="components-panel drill">
                    <h3>{ "Drill-down: thread → library → function" }</h3>
                    <Icicle report={report.clone()} zoom={(*zoom).clone()}
                        on_zoom={Callback::from(move |p| zoom.set(p))} {dark} format={format.clone()} />
                </div>
            </div>
        </section>
    }
}

/// The thread picker, the "other below" input and the headline figures.
fn toolbar(
    loaded: &Loaded,
    report: &ComponentsReport,
    choice: &UseStateHandle<Choice>,
    format: &Callback<i64, String>,
) -> Html {
    let on_thread = {
        let choice = choice.clone();
        Callback::from(move |e: Event| {
            let value = e.target_unchecked_into::<HtmlSelectElement>().value();
            let mut next = (*choice).clone();
            next.thread = value.parse::<u32>().ok();
            choice.set(next);
        })
    };
    let on_other = {
        let choice = choice.clone();
        Callback::from(move |e: Event| {
            let value = e
                .target_unchecked_into::<HtmlInputElement>()
                .value_as_number();
            let mut next = (*choice).clone();
            next.other_below = if value.is_finite() {
                value.clamp(0.0, 100.0)
            } else {
                0.0
            };
            choice.set(next);
        })
    };
    let selected = choice.thread;
    let wait = total_wait(report);
    let share = |v: i64| {
        if report.time > 0 {
            format!(" ({:.1} %)", v as f64 * 100.0 / report.time as f64)
        } else {
            String::new()
        }
    };
    html! {
        <div class="components-toolbar toolbar">
            <label>{ "Thread " }
                <select id="components-thread" onchange={on_thread}>
                    <option value="all" selected={selected.is_none()}>{ "all threads" }</option>
                    { for loaded.trace.threads.iter().enumerate().map(|(i, t)| {
                        let text = if t.name.is_empty() || t.name == t.id { t.id.clone() } else { format!("{} ({})", t.id, t.name) };
                        html! { <option value={i.to_string()} selected={selected == Some(i as u32)}>{ text }</option> }
                    }) }
                </select>
            </label>
            <label>{ "Other below " }
                <input id="components-other" type="number" min="0" max="100" step="0.5"
                    value={choice.other_below.to_string()} onchange={on_other} />{ " %" }
            </label>
            <span class="components-figures" id="components-figures">
                <span>{ "Time " }<b>{ format.emit(report.time) }</b></span>
                <span class="work">{ "Working " }<b>{ format.emit(report.time - wait) }</b>{ share(report.time - wait) }</span>
                <span class="wait">{ "Waiting " }<b>{ format.emit(wait) }</b>{ share(wait) }</span>
                <span>{ format!("{} thread(s)", report.threads.len()) }</span>
            </span>
        </div>
    }
}
