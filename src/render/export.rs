//! The SVG of the view on screen, from explicit inputs: the flame graph (or
//! the sandwich's callees, or the diff's merged graph) at its zoom with
//! [`flame_svg`], or the timeline's window as painted last with
//! [`TimelineSvg`]. What "Export SVG" saves and `window.flamedrop.svg()`
//! returns; no web types, so it is tested natively.

use super::svg::flame_svg;
use super::timeline_svg::TimelineSvg;
use crate::render::colors::Colouring;
use crate::timeline::ChartModel;
use crate::view_model::text::weight;
use crate::view_model::{Compared, Loaded};
use crate::view_model::{View, ViewState};

/// What the SVG of a view is made from.
pub struct SvgInputs<'a> {
    pub loaded: &'a Loaded,
    pub views: &'a ViewState,
    pub comparison: Option<&'a Compared>,
    /// The timeline as last painted.
    pub chart: Option<&'a ChartModel>,
    pub colouring: Colouring,
    /// The width of the view's canvas (CSS px), once it has been drawn.
    pub width: Option<f64>,
}

const NOT_DRAWN: &str = "the view has not been drawn yet";

/// The SVG of the open view.
pub fn svg(inputs: &SvgInputs) -> Result<String, String> {
    let (loaded, state) = (inputs.loaded, inputs.views);
    let tree = match state.view {
        View::Timeline => return timeline_svg(inputs),
        View::CallTree => return Err("the call tree is a table: no SVG".to_owned()),
        View::Listing => return Err("the listing is text: use its Save button".to_owned()),
        View::Memory => {
            let width = canvas_width(inputs);
            return super::memory_svg::memory_chart_svg(
                loaded,
                state,
                width,
                inputs.colouring.dark,
            );
        }
        View::Files | View::Network | View::Threads => {
            return Err("the activity charts export as PNG only".to_owned())
        }
        View::Components => return Err("the components view: use Export PNG".to_owned()),
        View::Values => return Err("the values view: use Export PNG".to_owned()),
        View::Source => return Err("the source view is text".to_owned()),
        View::Diff => return diff_svg(inputs),
        View::FlameGraph => {
            inputs.width.ok_or(NOT_DRAWN)?;
            loaded.top_down(state.source, state.range)
        }
        View::Sandwich => {
            inputs.width.ok_or(NOT_DRAWN)?;
            let function = state
                .function
                .as_deref()
                .and_then(|f| loaded.function_id(f))
                .ok_or("pick a function first")?;
            loaded.sandwich(state.source, state.range, function).1
        }
    };
    let id = state.view.canvas_id().unwrap_or_default();
    let format = weight(state.source.unit(&loaded.trace), state.source.is_time());
    Ok(flame_svg(
        &tree,
        state.zoom_of(id),
        &loaded.trace.strings,
        canvas_width(inputs),
        inputs.colouring,
        &format,
        None,
    ))
}

/// The SVG's width: the canvas', at least 200 px.
fn canvas_width(inputs: &SvgInputs) -> f64 {
    inputs.width.unwrap_or(0.0).max(200.0)
}

/// The differential flame graph at its zoom, widths by the side on screen,
/// coloured by the change in self time as on screen.
fn diff_svg(inputs: &SvgInputs) -> Result<String, String> {
    let state = inputs.views;
    let compared = inputs
        .comparison
        .ok_or("open a trace to compare with first")?;
    let outcome = compared.diff(state.source);
    let data = outcome.as_ref().as_ref().map_err(Clone::clone)?;
    inputs.width.ok_or(NOT_DRAWN)?;
    let tree = data.side(state.diff_side);
    let format = weight(
        state.source.unit(&inputs.loaded.trace),
        state.source.is_time(),
    );
    Ok(flame_svg(
        tree,
        state.zoom_of(View::Diff.canvas_id().unwrap_or_default()),
        &data.strings,
        canvas_width(inputs),
        inputs.colouring,
        &format,
        Some(&data.fills[usize::from(inputs.colouring.dark)]),
    ))
}

/// The timeline's window as painted last.
fn timeline_svg(inputs: &SvgInputs) -> Result<String, String> {
    let loaded = inputs.loaded;
    let model = inputs.chart.ok_or("the timeline has not been drawn yet")?;
    let titles: Vec<String> = (0..loaded.trace.threads.len())
        .map(|t| loaded.thread_title(t))
        .collect();
    Ok(TimelineSvg {
        trace: &loaded.trace,
        index: &loaded.index,
        origin: loaded.origin,
        titles: &titles,
        model,
        dark: inputs.colouring.dark,
        by_group: inputs.colouring.by_group,
    }
    .render())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view_model::loaded::test_traces::main_and_work;
    use crate::view_model::ViewChange;
    use std::rc::Rc;

    fn loaded() -> Rc<Loaded> {
        Rc::new(main_and_work())
    }

    fn inputs<'a>(loaded: &'a Loaded, views: &'a ViewState, width: Option<f64>) -> SvgInputs<'a> {
        SvgInputs {
            loaded,
            views,
            comparison: None,
            chart: None,
            colouring: Colouring::default(),
            width,
        }
    }

    #[test]
    fn the_flame_graph_is_written_at_the_page_zoom() {
        let loaded = loaded();
        let mut views = ViewState::default();
        views.apply(ViewChange::View(View::FlameGraph));
        let whole = svg(&inputs(&loaded, &views, Some(400.0))).expect("an SVG");
        assert!(
            whole.contains(">main") && whole.contains(">work"),
            "{whole}"
        );
        // Zoomed into `work` (node 2: root, main, work), main is gone.
        views.apply(ViewChange::Zoom("flamegraph".to_owned(), 2));
        let zoomed = svg(&inputs(&loaded, &views, Some(400.0))).expect("an SVG");
        assert!(
            !zoomed.contains(">main") && zoomed.contains(">work"),
            "{zoomed}"
        );
        assert_eq!(
            svg(&inputs(&loaded, &views, None)),
            Err(NOT_DRAWN.to_owned())
        );
    }

    #[test]
    fn views_without_an_svg_say_why() {
        let loaded = loaded();
        let mut views = ViewState::default();
        views.apply(ViewChange::View(View::CallTree));
        assert!(svg(&inputs(&loaded, &views, Some(400.0))).is_err());
        views.apply(ViewChange::View(View::Diff));
        let refused = svg(&inputs(&loaded, &views, Some(400.0)));
        assert_eq!(
            refused,
            Err("open a trace to compare with first".to_owned())
        );
        views.apply(ViewChange::View(View::Timeline));
        assert!(svg(&inputs(&loaded, &views, Some(400.0))).is_err());
    }

    #[test]
    fn the_diff_is_kept_with_its_comparison() {
        let compared = Compared::new(loaded(), loaded());
        let key = views_source();
        let first = compared.diff(key);
        assert!(Rc::ptr_eq(&first, &compared.diff(key)));
        let data = first.as_ref().as_ref().expect("same units compare");
        assert_eq!(
            data.side(flamedrop_core::analysis::diff::Side::Base)
                .root()
                .total,
            100
        );
        let mut views = ViewState::default();
        views.apply(ViewChange::View(View::Diff));
        let text = svg(&SvgInputs {
            comparison: Some(&compared),
            ..inputs(&compared.base, &views, Some(300.0))
        })
        .expect("an SVG");
        assert!(text.contains(">work"), "{text}");
    }

    fn views_source() -> crate::view_model::SourceKey {
        ViewState::default().source
    }
}
