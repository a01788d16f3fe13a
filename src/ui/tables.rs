//! The "Tables" panel: every table the decoder computed for its format
//! (`trace.tables`: Scaler's synchronisation objects, leak groups, …) with
//! its title and note, columns sortable by clicking their headers (numeric
//! columns as numbers), and rows reachable with the keyboard. A row that
//! names a span detail (`row_highlight`) highlights, on click or Enter, the
//! spans carrying that detail in every lane; choosing it again clears it.

use crate::view_model::Loaded;
use flamedrop_core::model::{Field, Table};
use std::cmp::Ordering;
use std::collections::HashMap;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub loaded: Rc<Loaded>,
    /// The detail highlighted now, if any.
    pub highlight: Option<Field>,
    /// Asks to highlight a detail (or to clear the highlight).
    pub on_highlight: Callback<Option<Field>>,
}

/// How one table is sorted: column and direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct SortBy {
    column: usize,
    ascending: bool,
}

#[function_component(Tables)]
pub fn tables(props: &Props) -> Html {
    let sorting = use_state(HashMap::<usize, SortBy>::new);
    let tables = &props.loaded.trace.tables;
    if tables.is_empty() {
        return html! {
            <section class="tables empty" id="tables">
                <p class="muted">{ "This trace's format adds no tables." }</p>
            </section>
        };
    }
    html! {
        <section class="tables" id="tables">
            { for tables.iter().enumerate().map(|(t, table)| {
                let sort = sorting.get(&t).copied();
                let on_sort = {
                    let sorting = sorting.clone();
                    Callback::from(move |column: usize| {
                        let mut next = (*sorting).clone();
                        let ascending = !matches!(next.get(&t), Some(s) if s.column == column && s.ascending);
                        next.insert(t, SortBy { column, ascending });
                        sorting.set(next);
                    })
                };
                view_table(table, sort, on_sort, props)
            }) }
        </section>
    }
}

fn view_table(
    table: &Table,
    sort: Option<SortBy>,
    on_sort: Callback<usize>,
    props: &Props,
) -> Html {
    let order = row_order(table, sort);
    let header = table.columns.iter().enumerate().map(|(c, column)| {
        let aria = match sort {
            Some(s) if s.column == c && s.ascending => "ascending",
            Some(s) if s.column == c => "descending",
            _ => "none",
        };
        let on_sort = on_sort.clone();
        html! {
            <th aria-sort={aria} class={classes!(column.numeric.then_some("numeric"))}>
                <button type="button" class="sort" title="sort by this column"
                    onclick={Callback::from(move |_: MouseEvent| on_sort.emit(c))}>
                    { &column.name }
                    <span class="sort-mark" aria-hidden="true">{ match aria { "ascending" => " ▲", "descending" => " ▼", _ => "" } }</span>
                </button>
            </th>
        }
    });
    let rows = order.into_iter().map(|r| {
        let cells = table.rows.get(r).map_or(&[][..], Vec::as_slice);
        let field = table.row_highlight.get(r).cloned().flatten();
        let selected = field.is_some() && field == props.highlight;
        let choose = {
            let on_highlight = props.on_highlight.clone();
            let field = field.clone();
            move || {
                if let Some(field) = &field {
                    on_highlight.emit((!selected).then(|| field.clone()));
                }
            }
        };
        let onclick = {
            let choose = choose.clone();
            Callback::from(move |_: MouseEvent| choose())
        };
        let onkeydown = Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Enter" || e.key() == " " {
                e.prevent_default();
                choose();
            }
        });
        let title = field.as_ref().map(|f| format!("highlight the calls with {} = {}", f.key, f.value));
        html! {
            <tr tabindex={field.is_some().then_some("0")} aria-selected={selected.to_string()}
                class={classes!(field.is_some().then_some("selectable"), selected.then_some("selected"))}
                data-row={r.to_string()} {title} {onclick} {onkeydown}>
                { for table.columns.iter().enumerate().map(|(c, column)| html! {
                    <td class={classes!(column.numeric.then_some("numeric"))}>
                        { cells.get(c).map_or("", String::as_str) }
                    </td>
                }) }
            </tr>
        }
    });
    html! {
        <div class="table-view" id={format!("table-{}", table.id)} data-table={table.id.clone()}>
            <h3>{ format!("{} ({})", table.title, table.rows.len()) }</h3>
            if !table.note.is_empty() {
                <p class="table-note muted">{ &table.note }</p>
            }
            <div class="table-scroll">
                <table class="data-table">
                    <thead><tr>{ for header }</tr></thead>
                    <tbody>{ for rows }</tbody>
                </table>
            </div>
        </div>
    }
}

/// Row indices in display order.
fn row_order(table: &Table, sort: Option<SortBy>) -> Vec<usize> {
    let mut order: Vec<usize> = (0..table.rows.len()).collect();
    let Some(sort) = sort else { return order };
    let numeric = table.columns.get(sort.column).is_some_and(|c| c.numeric);
    let cell = |r: usize| {
        table
            .rows
            .get(r)
            .and_then(|row| row.get(sort.column))
            .map_or("", String::as_str)
    };
    order.sort_by(|&a, &b| {
        let ordering = if numeric {
            compare_numbers(cell(a), cell(b))
        } else {
            cell(a).cmp(cell(b))
        };
        if sort.ascending {
            ordering
        } else {
            ordering.reverse()
        }
    });
    order
}

/// Numbers compare by value; cells that are not numbers sort after them.
fn compare_numbers(a: &str, b: &str) -> Ordering {
    match (a.trim().parse::<f64>(), b.trim().parse::<f64>()) {
        (Ok(x), Ok(y)) => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
        (Ok(_), Err(_)) => Ordering::Less,
        (Err(_), Ok(_)) => Ordering::Greater,
        (Err(_), Err(_)) => a.cmp(b),
    }
}
