//! The chart of a location's numeric values (canvas `values-chart`), at its
//! box's width; a click selects the value's event nearest to it.

use crate::render::values::paint_chart;
use crate::view_model::values::{chart_hit, chart_points};
use flamedrop_core::analysis::values::ValueHistory;
use std::rc::Rc;
use web_sys::{Element, HtmlCanvasElement};
use yew::prelude::*;

/// Height of the chart (CSS px).
const HEIGHT: f64 = 120.0;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub history: Rc<ValueHistory>,
    pub dark: bool,
    pub event: Option<u32>,
    pub on_event: Callback<Option<u32>>,
}

/// The width of `holder` (CSS px), at least 200.
fn width_of(holder: &NodeRef) -> f64 {
    holder
        .cast::<Element>()
        .map_or(0.0, |e| f64::from(e.client_width()))
        .max(200.0)
}

#[function_component(ValuesChart)]
pub fn values_chart(props: &Props) -> Html {
    let (canvas, holder) = (use_node_ref(), use_node_ref());
    {
        let (canvas, holder) = (canvas.clone(), holder.clone());
        let deps = (props.history.clone(), props.dark, props.event);
        use_effect_with(deps, move |(history, dark, event)| {
            let width = width_of(&holder);
            let points = chart_points(history, width, HEIGHT);
            let range = (history.min.unwrap_or(0.0), history.max.unwrap_or(0.0));
            if let Some(c) = canvas.cast::<HtmlCanvasElement>() {
                let dpr = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio());
                c.set_width(((width * dpr).round() as u32).max(1));
                c.set_height(((HEIGHT * dpr).round() as u32).max(1));
                let style = c.style();
                let _ = style.set_property("width", &format!("{width}px"));
                let _ = style.set_property("height", &format!("{HEIGHT}px"));
                if let Some(g) = crate::browser::context_2d(&c) {
                    let _ = g.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0);
                    paint_chart(&g, &points, range, (width, HEIGHT), *dark, *event);
                }
            }
        });
    }
    let on_click = {
        let (history, holder, on_event) = (
            props.history.clone(),
            holder.clone(),
            props.on_event.clone(),
        );
        Callback::from(move |e: MouseEvent| {
            let points = chart_points(&history, width_of(&holder), HEIGHT);
            if let Some(event) = chart_hit(&points, f64::from(e.offset_x())) {
                on_event.emit(Some(event));
            }
        })
    };
    html! {
        <div class="values-chart" ref={holder}>
            <canvas id="values-chart" ref={canvas} onclick={on_click} role="img"
                aria-label="The location's numeric values in event order, from min (bottom) to max (top)" />
        </div>
    }
}
