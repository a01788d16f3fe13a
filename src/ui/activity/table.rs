//! The table under the chart: one line per row of the chart, with its calls,
//! bytes and times within the ruler's range (the Dynamic Analyzer's range
//! inspection). A click picks the row.

use crate::view_model::activity::{cells, columns, is_number_column};
use crate::view_model::text::duration;
use crate::view_model::Loaded;
use flamedrop_core::analysis::activity::{Activity, RowSummary};
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub loaded: Rc<Loaded>,
    pub activity: Rc<Activity>,
    pub summaries: Rc<Vec<RowSummary>>,
    pub range: Option<(i64, i64)>,
    pub selected: Option<u32>,
    pub highlighted: Rc<Vec<bool>>,
    pub on_row: Callback<u32>,
}

#[function_component(Table)]
pub fn table(props: &Props) -> Html {
    let loaded = &props.loaded;
    let kind = props.activity.kind;
    let scope = match props.range {
        Some((a, b)) => format!(
            "In the range {} – {} ({})",
            duration(a - loaded.origin, loaded.unit()),
            duration(b - loaded.origin, loaded.unit()),
            duration(b - a, loaded.unit())
        ),
        None => {
            "Whole trace (drag across the chart to inspect a range; click a call for its details)"
                .to_owned()
        }
    };
    let calls: u64 = props.summaries.iter().map(|s| s.calls).sum();
    html! {
        <div class="activity-table-box">
            <p class="activity-scope" id="activity-scope">
                { scope }{ format!(" · {} rows · {calls} calls", props.summaries.len()) }
            </p>
            <table class="activity-table" id="activity-table">
                <thead><tr>{ for columns(kind).iter().enumerate().map(|(at, c)| html! {
                    <th scope="col" class={classes!(is_number_column(kind, at).then_some("number"))}>{ *c }</th>
                }) }</tr></thead>
                <tbody>
                    { for props.summaries.iter().map(|s| {
                        let row = s.row;
                        let onclick = props.on_row.reform(move |_: MouseEvent| row);
                        let lit = props.highlighted.get(row as usize).copied().unwrap_or(false);
                        let class = classes!(
                            (props.selected == Some(row)).then_some("selected"),
                            lit.then_some("highlighted"),
                            (s.calls == 0).then_some("quiet"),
                        );
                        html! {
                            <tr {class} {onclick} data-row={row.to_string()}>
                                { for cells(loaded, &props.activity, s).into_iter().enumerate().map(|(at, c)| html! {
                                    <td class={classes!(is_number_column(kind, at).then_some("number"))}>{ c }</td>
                                }) }
                            </tr>
                        }
                    }) }
                </tbody>
            </table>
        </div>
    }
}
