//! The Source view (SELogger): a method's source with observed values per
//! line. A placeholder until the view is built.

use crate::timeline::SpanRef;
use crate::view_model::Loaded;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub loaded: Rc<Loaded>,
    /// The selected span (its events are highlighted).
    pub selected: Option<SpanRef>,
    /// The selected event of the event log.
    pub event: Option<u32>,
    /// Select an event.
    pub on_event: Callback<Option<u32>>,
}

#[function_component(SourceView)]
pub fn source_view(_props: &Props) -> Html {
    html! { <section class="source-view" id="view-source"></section> }
}
