//! The side panel beside the chart: a "Summary" tab (with a badge when data
//! was lost), a "Details" tab for the selected call, and a "Tables" tab when
//! the format computed tables (Scaler's synchronisation objects, …).

use super::detail::Detail;
use super::summary::{loss_count, Summary};
use super::tables::Tables;
use crate::timeline::SpanRef;
use crate::view_model::Loaded;
use flamedrop_core::model::Field;
use std::rc::Rc;
use yew::prelude::*;

/// Which tab is open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    Summary,
    Details,
    Tables,
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub loaded: Rc<Loaded>,
    pub selected: Option<SpanRef>,
    pub tab: Tab,
    pub on_tab: Callback<Tab>,
    pub on_zoom: Callback<SpanRef>,
    /// The table detail highlighted in the chart, if any.
    pub highlight: Option<Field>,
    pub on_highlight: Callback<Option<Field>>,
}

#[function_component(Sidebar)]
pub fn sidebar(props: &Props) -> Html {
    let losses = loss_count(&props.loaded);
    let tab_button = |tab: Tab, label: &'static str, badge: Option<Html>| {
        let on_tab = props.on_tab.clone();
        let selected = props.tab == tab;
        html! {
            <button type="button" role="tab" class={classes!("tab", selected.then_some("selected"))}
                aria-selected={selected.to_string()} onclick={Callback::from(move |_: MouseEvent| on_tab.emit(tab))}>
                { label }{ for badge }
            </button>
        }
    };
    let badge = (losses > 0).then(|| {
        html! {
            <span class="badge" title="diagnostics reporting lost data">{ losses }</span>
        }
    });
    html! {
        <aside class="sidebar">
            <div class="tabs" role="tablist">
                { tab_button(Tab::Summary, "Summary", badge) }
                { tab_button(Tab::Details, "Details", None) }
                if !props.loaded.trace.tables.is_empty() {
                    { tab_button(Tab::Tables, "Tables", None) }
                }
            </div>
            <div class="tab-body">
                if props.tab == Tab::Summary {
                    <Summary loaded={props.loaded.clone()} />
                } else if props.tab == Tab::Tables {
                    <Tables loaded={props.loaded.clone()} highlight={props.highlight.clone()}
                        on_highlight={props.on_highlight.clone()} />
                } else {
                    <Detail loaded={props.loaded.clone()} selected={props.selected} on_zoom={props.on_zoom.clone()} />
                }
            </div>
        </aside>
    }
}
