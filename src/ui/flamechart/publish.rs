//! The chart's outward reports: everything it tells the rest of the page
//! other than through its other callback props, through one prop
//! ([`OnReport`]) — the window it paints (the timeline's SVG draws the
//! same), the first frame that showed spans, and where its lanes and counter
//! tracks are (for `window.flamedrop.lanes()` and `counters()`). The page
//! decides what to keep.

use crate::script_api::{CounterBox, LaneBox};
use crate::timeline::{ChartModel, LANE};
use crate::view_model::Loaded;
use std::rc::Rc;

/// What the chart reports as it paints.
pub enum ChartReport<'a> {
    /// The window about to be painted.
    Window(&'a ChartModel),
    /// The first frame that showed spans was painted.
    FirstDraw,
    /// Where the lanes and the counter tracks are on the canvas now.
    Lanes(Vec<LaneBox>, Vec<CounterBox>),
}

/// Where the chart's reports go; two are the same prop only if they are the
/// same function.
#[derive(Clone)]
pub struct OnReport(pub Rc<dyn Fn(ChartReport)>);

impl PartialEq for OnReport {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl Default for OnReport {
    fn default() -> Self {
        OnReport(Rc::new(|_| {}))
    }
}

/// What the chart last reported, so unchanged frames report nothing.
#[derive(Default)]
pub(super) struct Publisher {
    /// Scroll, width, height and theme when the lanes were last reported.
    lanes_at: Option<(f64, f64, f64, bool)>,
    /// A frame showed spans already (the chart is made anew per load).
    drawn: bool,
}

impl Publisher {
    /// Reports the lanes again on the next frame (they moved or changed).
    pub(super) fn lanes_changed(&mut self) {
        self.lanes_at = None;
    }

    /// The chart shows a new picture of a trace still loading: its first
    /// frame with spans is reported again.
    pub(super) fn new_picture(&mut self) {
        self.drawn = false;
        self.lanes_at = None;
    }

    /// A frame is about to be painted with this model.
    pub(super) fn chart(&self, to: &OnReport, model: &ChartModel) {
        (to.0)(ChartReport::Window(model));
    }

    /// A frame was painted; `drew` when it showed any span.
    pub(super) fn painted(&mut self, to: &OnReport, drew: bool) {
        if drew && !self.drawn {
            self.drawn = true;
            (to.0)(ChartReport::FirstDraw);
        }
    }

    /// Where the lanes and counter tracks are on the canvas, when any of
    /// them changed since the last report.
    pub(super) fn lanes(&mut self, to: &OnReport, loaded: &Loaded, model: &ChartModel, dark: bool) {
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
        (to.0)(ChartReport::Lanes(lanes, counters));
    }
}
