//! The table of changes beside the differential flame graph
//! (`table#diff-table`): every function of either trace with base and new
//! self time, the change and its percentage, and both call counts. Column
//! headers sort (again to reverse); rows are reachable with Tab and the
//! arrow keys, and Enter, Space or a click picks the function (outlined in
//! the graph; picking it again clears). Each row carries its raw numbers in
//! `data-*` attributes for scripts and tests.

use crate::view_model::diff::{percent, sort_rows, Column};
use crate::view_model::text::signed;
use flamedrop_core::analysis::{Comparison, FunctionDiff};
use flamedrop_core::model::StringTable;
use std::collections::HashSet;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::HtmlElement;
use yew::prelude::*;

/// Rows rendered at most.
const MAX_ROWS: usize = 1000;

#[derive(Properties)]
pub struct Props {
    pub comparison: Rc<Comparison>,
    pub format: Callback<i64, String>,
    /// The picked function.
    pub picked: Option<String>,
    pub on_row: Callback<Option<String>>,
    /// Per diff string id: matches the search.
    pub marks: Option<Rc<Vec<bool>>>,
    pub strings: Rc<StringTable>,
}

/// The names compare by identity (they belong to the comparison).
impl PartialEq for Props {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.comparison, &other.comparison)
            && Rc::ptr_eq(&self.strings, &other.strings)
            && self.format == other.format
            && self.picked == other.picked
            && self.on_row == other.on_row
            && self.marks == other.marks
    }
}

/// How the table is sorted: the column and whether largest first.
type Sort = UseStateHandle<(Column, bool)>;

#[function_component(DiffTable)]
pub fn diff_table(props: &Props) -> Html {
    // Largest change in self time first, as the comparison comes.
    let sort = use_state(|| (Column::DeltaSelf, true));
    let rows: Rc<Vec<FunctionDiff>> = {
        let (comparison, (column, descending)) = (props.comparison.clone(), *sort);
        (*use_memo(
            (comparison, column, descending),
            |(c, column, descending)| {
                let mut rows = c.functions.clone();
                if (*column, *descending) != (Column::DeltaSelf, true) {
                    sort_rows(&mut rows, *column, *descending);
                }
                Rc::new(rows)
            },
        ))
        .clone()
    };
    // The names the search matches (none: no search).
    let marked: Option<HashSet<&str>> = props.marks.as_ref().map(|m| {
        props
            .strings
            .all()
            .iter()
            .zip(m.iter())
            .filter(|(_, &hit)| hit)
            .map(|(s, _)| s.as_str())
            .collect()
    });
    let matched = |name: &str| marked.as_ref().map(|m| m.contains(name));
    html! {
        <div class="diff-table-scroll">
            <table id="diff-table" class="diff-table" aria-label="Functions whose self time changed most, base against new">
                <thead><tr>{ for Column::ALL.into_iter().map(|c| header(&sort, c)) }</tr></thead>
                <tbody>{ for rows.iter().take(MAX_ROWS).map(|f| row(props, f, matched(&f.name))) }</tbody>
            </table>
            if rows.len() > MAX_ROWS {
                <p class="note">{ format!("Showing the {MAX_ROWS} largest of {} functions.", rows.len()) }</p>
            }
        </div>
    }
}

/// A column's header: a button that sorts by it (again to reverse).
fn header(sort: &Sort, (column, label): (Column, &'static str)) -> Html {
    let (sorted_by, descending) = **sort;
    let sorted = sorted_by == column;
    let onclick = {
        let sort = sort.clone();
        Callback::from(move |_: MouseEvent| {
            let (by, desc) = *sort;
            // Names read best A→Z, numbers largest first.
            let first = column != Column::Name;
            sort.set((column, if by == column { !desc } else { first }));
        })
    };
    let aria = match (sorted, descending) {
        (false, _) => "none",
        (true, true) => "descending",
        (true, false) => "ascending",
    };
    let class = if column == Column::Name {
        "name"
    } else {
        "num"
    };
    html! {
        <th scope="col" class={class} aria-sort={aria}>
            <button type="button" class="sort" data-sort={column.name()} {onclick}>{ label }</button>
        </th>
    }
}

/// One function's row; `matched`: whether the search matches it (none: no
/// search).
fn row(props: &Props, f: &FunctionDiff, matched: Option<bool>) -> Html {
    let picked = props.picked.as_deref() == Some(f.name.as_str());
    let choose = {
        let (on_row, name) = (props.on_row.clone(), f.name.clone());
        Rc::new(move || on_row.emit((!picked).then(|| name.clone())))
    };
    let onclick = {
        let choose = choose.clone();
        Callback::from(move |_: MouseEvent| choose())
    };
    let onkeydown = Callback::from(move |e: KeyboardEvent| row_key(&e, &*choose));
    let growth = match f.delta_self.signum() {
        1 => "grew",
        -1 => "shrank",
        _ => "same",
    };
    html! {
        <tr key={f.name.clone()} tabindex="0" data-name={f.name.clone()}
            data-base-self={f.base.self_time.to_string()} data-new-self={f.new.self_time.to_string()}
            data-base-total={f.base.total.to_string()} data-new-total={f.new.total.to_string()}
            data-base-calls={f.base.calls.to_string()} data-new-calls={f.new.calls.to_string()}
            aria-selected={picked.to_string()}
            class={classes!(picked.then_some("selected"), matched.map(|m| if m { "match" } else { "dim" }))}
            {onclick} {onkeydown}>
            <td class="name" title={f.name.clone()}>{ f.name.clone() }</td>
            <td class="num">{ props.format.emit(f.base.self_time) }</td>
            <td class="num">{ props.format.emit(f.new.self_time) }</td>
            <td class={classes!("num", "delta", growth)}>{ signed(f.delta_self, |v| props.format.emit(v)) }</td>
            <td class={classes!("num", "delta", growth)}>{ percent(f) }</td>
            <td class="num">{ f.base.calls }</td>
            <td class="num">{ f.new.calls }</td>
        </tr>
    }
}

/// A key on a row: Enter or Space picks it, the arrows move between rows.
fn row_key(e: &KeyboardEvent, choose: &dyn Fn()) {
    match e.key().as_str() {
        "Enter" | " " => {
            e.prevent_default();
            choose();
        }
        "ArrowDown" | "ArrowUp" => {
            e.prevent_default();
            let row = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok());
            let next = row.and_then(|r| {
                if e.key() == "ArrowDown" {
                    r.next_element_sibling()
                } else {
                    r.previous_element_sibling()
                }
            });
            if let Some(next) = next.and_then(|n| n.dyn_into::<HtmlElement>().ok()) {
                let _ = next.focus();
            }
        }
        _ => {}
    }
}
