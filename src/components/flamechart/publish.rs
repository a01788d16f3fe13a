//! The chart's outward reports: everything it tells the rest of the page
//! other than through its callback props. Today these are writes into page
//! globals: the model the SVG export draws (`export_view`), and for
//! `window.flamedrop` the lane boxes, the theme's background and the time of
//! the first drawn frame (`js_api`). They are gathered here so that the
//! page's single state can replace them with callback props in this one
//! place.

use crate::canvas::colors;
use crate::chart::{ChartModel, LANE};
use crate::js_api::{self, CounterBox, LaneBox};
use crate::state::Loaded;

/// What the chart last reported, so unchanged frames report nothing.
#[derive(Default)]
pub(super) struct Publisher {
    /// Scroll, width, height and theme when the lanes were last reported.
    lanes_at: Option<(f64, f64, f64, bool)>,
}

impl Publisher {
    /// Reports the lanes again on the next frame (they moved or changed).
    pub(super) fn lanes_changed(&mut self) {
        self.lanes_at = None;
    }

    /// A frame is about to be painted with this model: the export draws the
    /// same window.
    pub(super) fn chart(&self, model: &ChartModel) {
        crate::export_view::remember_chart(model);
    }

    /// A frame was painted; `drew` when it showed any span.
    pub(super) fn painted(&self, drew: bool) {
        if drew && js_api::awaiting_first_draw() {
            js_api::first_draw();
        }
    }

    /// Where the lanes and counter tracks are on the canvas, and the
    /// background, when any of them changed since the last report.
    pub(super) fn lanes(&mut self, loaded: &Loaded, model: &ChartModel, dark: bool) {
        let key = (model.scroll, model.view.width, model.height, dark);
        if self.lanes_at == Some(key) {
            return;
        }
        self.lanes_at = Some(key);
        let lanes = model
            .lanes
            .iter()
            .map(|lane| LaneBox {
                thread_id: loaded
                    .trace
                    .threads
                    .get(lane.thread)
                    .map_or_else(String::new, |t| t.id.clone()),
                top: model.screen_y(lane.top),
                height: lane.height,
            })
            .collect();
        let counters = model
            .counters
            .iter()
            .filter_map(|track| {
                let counter = loaded.trace.counters.get(track.counter)?;
                Some(CounterBox {
                    name: counter.name.clone(),
                    unit: counter.unit.clone(),
                    top: model.screen_y(track.top),
                    header: LANE.header,
                    height: track.height,
                })
            })
            .collect();
        js_api::set_lanes(lanes, counters, colors::theme(dark).background);
    }
}
