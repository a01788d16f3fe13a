//! The Values view (SELogger): the history of values at one location.
//! A placeholder until the view is built.

use crate::render::colors::Colouring;
use crate::view_model::Loaded;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub loaded: Rc<Loaded>,
    /// The selected event of the event log.
    pub event: Option<u32>,
    pub colouring: Colouring,
    /// Select an event (a jump from the history).
    pub on_event: Callback<Option<u32>>,
}

#[function_component(ValuesView)]
pub fn values_view(_props: &Props) -> Html {
    html! { <section class="values-view" id="view-values"></section> }
}
