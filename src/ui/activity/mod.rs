//! The Files, Network and Threads views (the Tizen Dynamic Analyzer's File,
//! Network and Thread pages): a lane chart on the timeline's time axis (the
//! ruler's range when one is set), a legend, the table of what is drawn
//! recomputed for that range, and the detail box of the picked call. A drag
//! across the chart sets the ruler's range; a click picks a call (or a row:
//! on the Threads view its sync object is highlighted on every thread).

mod chart;
mod detail;
mod table;

use crate::render::colors::Colouring;
use crate::view_model::activity::{kind_of, same_object};
use crate::view_model::{Loaded, View};
use chart::Chart;
use detail::Detail;
use flamedrop_core::analysis::activity::{build, summarize, Activity};
use std::rc::Rc;
use table::Table;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub loaded: Rc<Loaded>,
    /// Files, Network or Threads.
    pub view: View,
    /// The ruler's range (absolute trace times).
    pub range: Option<(i64, i64)>,
    pub on_range: Callback<Option<(i64, i64)>>,
    pub colouring: Colouring,
}

pub enum Msg {
    /// A call picked on the chart (index into the marks), or none.
    Pick(Option<usize>),
    /// A row picked on the chart or in the table.
    Row(Option<u32>),
}

pub struct ActivityView {
    activity: Rc<Activity>,
    picked: Option<usize>,
    row: Option<u32>,
}

fn activity_of(props: &Props) -> Rc<Activity> {
    let kind =
        kind_of(props.view).unwrap_or(flamedrop_core::analysis::activity::ActivityKind::Files);
    Rc::new(build(&props.loaded.trace, kind))
}

impl Component for ActivityView {
    type Message = Msg;
    type Properties = Props;

    fn create(ctx: &Context<Self>) -> Self {
        ActivityView {
            activity: activity_of(ctx.props()),
            picked: None,
            row: None,
        }
    }

    fn changed(&mut self, ctx: &Context<Self>, old: &Props) -> bool {
        let props = ctx.props();
        if !Rc::ptr_eq(&props.loaded, &old.loaded) || props.view != old.view {
            self.activity = activity_of(props);
            self.picked = None;
            self.row = None;
        }
        true
    }

    fn update(&mut self, _ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::Pick(picked) => {
                self.picked = picked;
                if let Some(m) = picked.and_then(|p| self.activity.marks.get(p)) {
                    self.row = Some(m.row);
                }
            }
            Msg::Row(row) => {
                self.row = row;
                if row.is_none() {
                    self.picked = None;
                }
            }
        }
        true
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let props = ctx.props();
        let name = props.view.name();
        let activity = &self.activity;
        if activity.is_empty() {
            return html! {
                <section class="activity-view" id={format!("view-{name}")}>
                    <p class="note" role="status">{ "Nothing of this kind in the trace." }</p>
                </section>
            };
        }
        let highlighted = Rc::new(match self.row {
            Some(row) => same_object(activity, row),
            None => vec![false; activity.rows.len()],
        });
        let summaries = Rc::new(summarize(activity, props.range));
        let mark = self.picked.and_then(|p| activity.marks.get(p)).copied();
        html! {
            <section class="activity-view" id={format!("view-{name}")} aria-label={props.view.label()}>
                <Chart loaded={props.loaded.clone()} activity={activity.clone()} id={props.view.info().canvas.unwrap_or("activity-chart")}
                    range={props.range} on_range={props.on_range.clone()} dark={props.colouring.dark}
                    highlighted={highlighted.clone()} picked={self.picked}
                    on_pick={ctx.link().callback(Msg::Pick)} on_row={ctx.link().callback(Msg::Row)} />
                <div class="activity-below">
                    <Table loaded={props.loaded.clone()} activity={activity.clone()} {summaries}
                        range={props.range} selected={self.row} {highlighted}
                        on_row={ctx.link().callback(|r| Msg::Row(Some(r)))} />
                    <Detail loaded={props.loaded.clone()} activity={activity.clone()} {mark} />
                </div>
            </section>
        }
    }
}
