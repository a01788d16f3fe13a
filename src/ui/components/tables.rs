//! The Components view's tables: the libraries (sortable by any column),
//! the caller → callee matrix and the serial vs parallel figures.

use crate::view_model::components::{sorted, Column};
use flamedrop_core::analysis::components::{CallEdge, ComponentsReport, LibraryTime};
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct LibraryProps {
    pub rows: Rc<Vec<LibraryTime>>,
    /// The column sorted by, and whether the order is reversed.
    pub sort: (Column, bool),
    pub on_sort: Callback<Column>,
    pub format: Callback<i64, String>,
}

/// One row per library.
#[function_component(LibraryTable)]
pub fn library_table(props: &LibraryProps) -> Html {
    let (column, reverse) = props.sort;
    let rows = sorted(&props.rows, column, reverse);
    let f = &props.format;
    let header = Column::ALL.iter().map(|&(c, title)| {
        let on_sort = props.on_sort.clone();
        let sorted_here = c == column;
        let class = classes!(
            (c != Column::Library).then_some("num"),
            sorted_here.then_some(if reverse { "sorted up" } else { "sorted down" })
        );
        html! {
            <th {class} data-column={c.name()} aria-sort={if sorted_here { if reverse { "ascending" } else { "descending" } } else { "none" }}>
                <button type="button" onclick={Callback::from(move |_| on_sort.emit(c))}>{ title }</button>
            </th>
        }
    });
    html! {
        <table class="components-table" id="components-table">
            <thead><tr>{ for header }</tr></thead>
            <tbody>
                if rows.is_empty() {
                    <tr><td colspan="7" class="empty">{ "no calls in this range" }</td></tr>
                }
                { for rows.iter().map(|r| html! {
                    <tr data-library={r.library.clone()} class={classes!((!r.grouped.is_empty()).then_some("other"))}
                        title={(!r.grouped.is_empty()).then(|| r.grouped.join(", "))}>
                        <td class="name"><span class={classes!("swatch", swatch_class(&r.library, !r.grouped.is_empty()))}></span>{ &r.library }</td>
                        <td class="num" data-value={r.self_time.to_string()}>{ f.emit(r.self_time) }</td>
                        <td class="num wait" data-value={r.wait.to_string()}>{ if r.wait > 0 { f.emit(r.wait) } else { "–".to_owned() } }</td>
                        <td class="num" data-value={r.inclusive.to_string()}>{ f.emit(r.inclusive) }</td>
                        <td class="num" data-value={r.calls.to_string()}>{ r.calls }</td>
                        <td class="num" data-value={r.local_percent.to_string()}>{ format!("{:.2}", r.local_percent) }</td>
                        <td class="num" data-value={r.global_percent.to_string()}>{ format!("{:.2}", r.global_percent) }</td>
                    </tr>
                }) }
            </tbody>
        </table>
    }
}

/// The palette slot class of a library (`c0` … `c15`), as the canvases colour it.
fn swatch_class(library: &str, other: bool) -> String {
    if other {
        "other".to_owned()
    } else {
        format!("c{}", crate::render::colors::colour_of(library, false))
    }
}

#[derive(Properties, PartialEq)]
pub struct MatrixProps {
    pub matrix: Rc<Vec<CallEdge>>,
    pub format: Callback<i64, String>,
}

/// One row per caller → callee pair, largest time first.
#[function_component(MatrixTable)]
pub fn matrix_table(props: &MatrixProps) -> Html {
    let mut edges = (*props.matrix).clone();
    edges.sort_by(|a, b| b.time.cmp(&a.time).then_with(|| a.caller.cmp(&b.caller)));
    let f = &props.format;
    html! {
        <table class="components-table matrix" id="components-matrix">
            <thead><tr><th>{ "Caller" }</th><th>{ "Callee" }</th><th class="num">{ "Time" }</th><th class="num">{ "Calls" }</th></tr></thead>
            <tbody>
                { for edges.iter().map(|e| html! {
                    <tr data-caller={e.caller.clone()} data-callee={e.callee.clone()} class={classes!((e.caller == e.callee).then_some("same"))}>
                        <td class="name">{ &e.caller }</td><td class="name">{ "→ " }{ &e.callee }</td>
                        <td class="num" data-value={e.time.to_string()}>{ f.emit(e.time) }</td>
                        <td class="num" data-value={e.calls.to_string()}>{ e.calls }</td>
                    </tr>
                }) }
            </tbody>
        </table>
    }
}

#[derive(Properties, PartialEq)]
pub struct SerialProps {
    pub report: Rc<ComponentsReport>,
    pub format: Callback<i64, String>,
}

/// The main thread kept, the workers averaged (Scaler's serial vs parallel).
#[function_component(SerialTable)]
pub fn serial_table(props: &SerialProps) -> Html {
    let Some(sp) = &props.report.serial_parallel else {
        return html! { <p class="components-note">{ "One thread: nothing runs in parallel." }</p> };
    };
    let f = &props.format;
    html! {
        <>
            <p class="components-note">{ format!("Main thread {} kept; {} worker thread(s) averaged.", sp.main_thread, sp.workers) }</p>
            <table class="components-table" id="components-serial">
                <thead><tr><th>{ "Library" }</th><th class="num">{ "Self" }</th><th class="num">{ "Wait" }</th><th class="num">{ "Inclusive" }</th><th class="num">{ "%" }</th></tr></thead>
                <tbody>
                    { for sp.libraries.iter().map(|l| html! {
                        <tr data-library={l.library.clone()}>
                            <td class="name">{ &l.library }</td>
                            <td class="num">{ f.emit(l.self_time.round() as i64) }</td>
                            <td class="num wait">{ f.emit(l.wait.round() as i64) }</td>
                            <td class="num">{ f.emit(l.inclusive.round() as i64) }</td>
                            <td class="num">{ format!("{:.2}", l.percent) }</td>
                        </tr>
                    }) }
                </tbody>
            </table>
        </>
    }
}
