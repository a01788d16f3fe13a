//! The timeline's view state and what inputs do to it: the time window,
//! the vertical scroll of the lanes, wheel and held-key motion (`keys`),
//! pointer gestures (`gesture`), which lane and row lie under a point, and
//! the lanes' order and visibility with their editing (`lane_layout`). No web
//! types, so it is tested natively; the component is `ui::flamechart`.

pub mod gesture;
pub mod keys;
pub mod lane_layout;

use flamedrop_core::layout::{
    instant_at, lanes, span_at, stack_lanes, Lane, LaneMetrics, ThreadIndex, Viewport,
};
use flamedrop_core::model::Thread;

/// Height of the time ruler at the top of the canvas (px).
pub const RULER_HEIGHT: f64 = 24.0;

/// Lane geometry: a header line for the thread name and markers, then rows.
pub const LANE: LaneMetrics = LaneMetrics {
    header: 22.0,
    row: 18.0,
    gap: 8.0,
};

/// Height of a counter track's area chart (under its header line).
pub const COUNTER_HEIGHT: f64 = 40.0;

/// Where one counter track sits, below the thread lanes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CounterTrack {
    /// Index into the trace's counters.
    pub counter: usize,
    /// px from the top of the lane area.
    pub top: f64,
    /// Header, chart and gap.
    pub height: f64,
}

/// Wheel zoom per pixel of vertical wheel delta (a notch is about 100 px).
const WHEEL_ZOOM_PER_PX: f64 = 0.0025;
/// Pinch zoom per pixel: trackpads send small deltas with ctrl held.
const PINCH_ZOOM_PER_PX: f64 = 0.01;

/// The unit written at the ruler's right end, for clocks whose tick labels
/// are bare numbers (logical clocks: SELogger events, sp-rtrace calls).
pub fn ruler_unit_label(unit: &str) -> Option<&str> {
    (unit == "events").then_some(unit)
}

/// Width of one of the buttons at the right end of a lane header (px).
const HEADER_BUTTON_PX: f64 = 18.0;
/// Room kept right of the header buttons for the scrollbar (px).
const HEADER_BUTTONS_RIGHT_PX: f64 = 12.0;

/// The buttons at the right end of every lane header, left to right.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeaderButton {
    Up,
    Down,
    Hide,
}

impl HeaderButton {
    /// Every button, left to right.
    pub const ALL: [HeaderButton; 3] = [HeaderButton::Up, HeaderButton::Down, HeaderButton::Hide];

    /// The glyph drawn for it.
    pub fn glyph(self) -> &'static str {
        match self {
            HeaderButton::Up => "↑",
            HeaderButton::Down => "↓",
            HeaderButton::Hide => "✕",
        }
    }

    /// True when a canvas `width` px wide has room for the buttons.
    pub fn shown(width: f64) -> bool {
        width >= 240.0
    }

    /// Left edge of the button on a canvas `width` px wide.
    pub fn x(self, width: f64) -> f64 {
        let i = HeaderButton::ALL
            .iter()
            .position(|&b| b == self)
            .unwrap_or(0);
        width - HEADER_BUTTONS_RIGHT_PX - (HeaderButton::ALL.len() - i) as f64 * HEADER_BUTTON_PX
    }

    /// The button at canvas x on a header, if any (none on a canvas too
    /// narrow to show them).
    pub fn at(width: f64, x: f64) -> Option<HeaderButton> {
        if !HeaderButton::shown(width) {
            return None;
        }
        HeaderButton::ALL
            .into_iter()
            .find(|b| (b.x(width)..b.x(width) + HEADER_BUTTON_PX).contains(&x))
    }
}

/// A thread lane or a counter track.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Track {
    /// A thread lane, by thread index.
    Thread(usize),
    /// A counter track, by counter index.
    Counter(usize),
}

/// Pointer slop: how far (px) from a thin span or marker still hovers it.
const HIT_SLOP_PX: f64 = 3.0;

/// A span of one thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpanRef {
    /// Index into the trace's threads.
    pub thread: usize,
    /// Index into that thread's spans.
    pub span: u32,
}

/// What is under the pointer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hit {
    Span(SpanRef),
    Instant { thread: usize, instant: u32 },
}

/// One wheel event, with deltas already in pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Wheel {
    pub x: f64,
    pub dx: f64,
    pub dy: f64,
    /// Ctrl held: a trackpad pinch, or ctrl + wheel.
    pub ctrl: bool,
    /// Shift held: scroll the lanes instead of zooming.
    pub shift: bool,
}

/// What the chart shows: the time window across the canvas width, the lanes
/// stacked below the ruler, and how far they are scrolled.
#[derive(Clone, Debug)]
pub struct ChartModel {
    pub view: Viewport,
    /// Canvas height (CSS px).
    pub height: f64,
    /// How far the lanes are scrolled up (px).
    pub scroll: f64,
    /// Lanes in drawing order, tops measured from the top of the lane area.
    pub lanes: Vec<Lane>,
    /// Counter tracks, after the lanes.
    pub counters: Vec<CounterTrack>,
    /// Every lane's thread and depth rows, in drawing order, and whether it
    /// is collapsed to its header.
    lane_rows: Vec<(usize, usize, bool)>,
    /// The thread lanes shown, in order (indices into `lane_rows`).
    shown: Vec<usize>,
    /// The counter tracks shown, in order (indices into the trace's counters).
    shown_counters: Vec<usize>,
    /// The trace's time range as offsets from its start: `(0, duration)`.
    bounds: (f64, f64),
    /// The window shown first and on reset.
    home: (f64, f64),
}

impl ChartModel {
    /// A chart over `duration` time units with one lane per `(thread, rows)`,
    /// first showing `home` (where the calls are; markers alone can stretch a
    /// trace far beyond them) with a little room on each side, or everything.
    pub fn new(
        duration: f64,
        threads: impl IntoIterator<Item = (usize, usize)>,
        home: Option<(f64, f64)>,
    ) -> Self {
        let lane_rows: Vec<(usize, usize, bool)> = threads
            .into_iter()
            .map(|(t, rows)| (t, rows, false))
            .collect();
        let mut lanes = Vec::new();
        stack_lanes(
            lane_rows.iter().map(|&(t, r, _)| (t, r)),
            &LANE,
            0.0,
            &mut lanes,
        );
        let bounds = (0.0, duration.max(1.0));
        let home = match home {
            Some((a, b)) if b > a => {
                let pad = (b - a) * 0.02;
                ((a - pad).max(bounds.0), (b + pad).min(bounds.1))
            }
            _ => bounds,
        };
        ChartModel {
            view: Viewport::new(home.0, home.1, 1.0),
            height: 1.0,
            scroll: 0.0,
            lanes,
            counters: Vec::new(),
            shown: (0..lane_rows.len()).collect(),
            shown_counters: Vec::new(),
            lane_rows,
            bounds,
            home,
        }
    }

    /// The canvas changed size (CSS px); the time window is kept.
    pub fn resize(&mut self, width: f64, height: f64) {
        self.view.width = width.max(1.0);
        self.height = height.max(1.0);
        self.scroll_by(0.0);
    }

    /// Back to the first view, scrolled to the top.
    pub fn reset(&mut self) {
        self.view = Viewport::new(self.home.0, self.home.1, self.view.width);
        self.scroll = 0.0;
    }

    /// Zooms by `factor` (> 1 zooms in) around x.
    pub fn zoom_at(&mut self, factor: f64, x: f64) {
        self.view
            .zoom_at(factor, x.clamp(0.0, self.view.width), self.bounds);
    }

    /// Pans by `dx` px (positive shows later times).
    pub fn pan_px(&mut self, dx: f64) {
        self.view.pan_px(dx, self.bounds);
    }

    /// Shows `[start, end]` (offsets from the trace start).
    pub fn show(&mut self, start: f64, end: f64) {
        self.view = Viewport::new(start, end, self.view.width);
        self.view.clamp(self.bounds);
    }

    /// Adds one track per counter below the lanes.
    pub fn add_counters(&mut self, count: usize) {
        self.shown_counters = (0..count).collect();
        self.restack();
    }

    /// Shows only thread lanes `threads` and counter tracks `counters` (trace
    /// indices), in that order; unknown indices are skipped.
    pub fn arrange(&mut self, threads: &[usize], counters: &[usize]) {
        self.shown = threads
            .iter()
            .filter_map(|&t| self.lane_rows.iter().position(|l| l.0 == t))
            .collect();
        self.shown_counters = counters.to_vec();
        self.restack();
    }

    /// Collapses thread `thread`'s lane to its header, or expands it again.
    pub fn toggle_lane(&mut self, thread: usize) {
        if let Some(l) = self.lane_rows.iter_mut().find(|l| l.0 == thread) {
            l.2 = !l.2;
        }
        self.restack();
    }

    /// True when thread `thread`'s lane is collapsed.
    pub fn is_collapsed(&self, thread: usize) -> bool {
        self.lane_rows.iter().any(|l| l.0 == thread && l.2)
    }

    /// Recomputes lane and counter positions after a change.
    fn restack(&mut self) {
        let rows = self
            .shown
            .iter()
            .filter_map(|&i| self.lane_rows.get(i))
            .map(|&(t, r, collapsed)| (t, if collapsed { 0 } else { r }));
        stack_lanes(rows, &LANE, 0.0, &mut self.lanes);
        let mut top = self.lanes.last().map_or(0.0, |l| l.top + l.height);
        self.counters.clear();
        for &counter in &self.shown_counters {
            let height = LANE.header + COUNTER_HEIGHT + LANE.gap;
            self.counters.push(CounterTrack {
                counter,
                top,
                height,
            });
            top += height;
        }
        self.scroll_by(0.0);
    }

    /// Height of all lanes and counter tracks together.
    pub fn content_height(&self) -> f64 {
        let lanes = self.lanes.last().map_or(0.0, |l| l.top + l.height);
        self.counters.last().map_or(lanes, |c| c.top + c.height)
    }

    /// Height available to lanes below the ruler.
    pub fn lanes_height(&self) -> f64 {
        (self.height - RULER_HEIGHT).max(0.0)
    }

    /// The largest useful scroll.
    pub fn max_scroll(&self) -> f64 {
        (self.content_height() - self.lanes_height()).max(0.0)
    }

    /// Scrolls the lanes by `dy` px (positive moves content up), within range.
    pub fn scroll_by(&mut self, dy: f64) {
        if dy.is_finite() {
            self.scroll = (self.scroll + dy).clamp(0.0, self.max_scroll());
        }
    }

    /// The canvas y of a lane-area y.
    pub fn screen_y(&self, lane_y: f64) -> f64 {
        RULER_HEIGHT + lane_y - self.scroll
    }

    /// The canvas y where a lane dragged to canvas y would land: the top
    /// of the lane or track there (or of the first one, above them all).
    pub fn drop_line_y(&self, y: f64) -> f64 {
        let lane_y = y - RULER_HEIGHT + self.scroll;
        let top = self
            .lanes
            .iter()
            .map(|l| l.top)
            .chain(self.counters.iter().map(|c| c.top))
            .filter(|&t| t <= lane_y)
            .fold(0.0, f64::max);
        self.screen_y(top)
    }

    /// The scrollbar thumb's canvas y and height, when the lanes are taller
    /// than the canvas.
    pub fn scrollbar_thumb(&self) -> Option<(f64, f64)> {
        let (content, room) = (self.content_height(), self.lanes_height());
        if content <= room || content <= 0.0 {
            return None;
        }
        let thumb = (room * room / content).max(24.0);
        let y = RULER_HEIGHT + (room - thumb) * (self.scroll / self.max_scroll().max(1.0));
        Some((y, thumb))
    }

    /// The lane under canvas y and the depth row under it (`None` on the header).
    pub fn hit_lane(&self, y: f64) -> Option<(&Lane, Option<usize>)> {
        if y < RULER_HEIGHT {
            return None;
        }
        let lane_y = y - RULER_HEIGHT + self.scroll;
        let lane = lanes::lane_at(&self.lanes, lane_y)?;
        Some((lane, lane.row_at(lane_y, &LANE)))
    }

    /// The thread lane or counter track at canvas y, and whether y is on
    /// its header line.
    pub fn track_at(&self, y: f64) -> Option<(Track, bool)> {
        if y < RULER_HEIGHT {
            return None;
        }
        if let Some((lane, row)) = self.hit_lane(y) {
            return Some((Track::Thread(lane.thread), row.is_none()));
        }
        let lane_y = y - RULER_HEIGHT + self.scroll;
        self.counters
            .iter()
            .find(|c| (c.top..c.top + c.height).contains(&lane_y))
            .map(|c| (Track::Counter(c.counter), lane_y < c.top + LANE.header))
    }

    /// The span or marker at canvas point (x, y); `origin` is the absolute
    /// time view offsets count from.
    pub fn hit(
        &self,
        threads: &[Thread],
        index: &[ThreadIndex],
        origin: i64,
        x: f64,
        y: f64,
    ) -> Option<Hit> {
        let (lane, row) = self.hit_lane(y)?;
        let thread = threads.get(lane.thread)?;
        match row {
            Some(depth) => {
                let span = span_at(
                    &thread.spans,
                    index.get(lane.thread)?,
                    &self.view,
                    origin,
                    depth,
                    x,
                    HIT_SLOP_PX,
                )?;
                Some(Hit::Span(SpanRef {
                    thread: lane.thread,
                    span,
                }))
            }
            None => {
                let instant = instant_at(&thread.instants, &self.view, origin, x, HIT_SLOP_PX)?;
                Some(Hit::Instant {
                    thread: lane.thread,
                    instant,
                })
            }
        }
    }

    /// Applies a wheel event: ctrl zooms finely (pinch), shift scrolls lanes,
    /// a mostly-horizontal swipe pans, and a plain wheel zooms at the cursor.
    pub fn wheel(&mut self, w: Wheel) {
        if w.ctrl {
            self.zoom_at((-w.dy * PINCH_ZOOM_PER_PX).exp(), w.x);
        } else if w.shift {
            self.scroll_by(if w.dy != 0.0 { w.dy } else { w.dx });
        } else if w.dx.abs() > w.dy.abs() {
            self.pan_px(w.dx);
        } else {
            self.zoom_at((-w.dy * WHEEL_ZOOM_PER_PX).exp(), w.x);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model() -> ChartModel {
        // Two lanes: 3 rows (22 + 54 + 8 = 84 px) and 40 rows (750 px).
        let mut m = ChartModel::new(1_000_000.0, [(0, 3), (1, 40)], None);
        m.resize(1000.0, 424.0);
        m
    }

    #[test]
    fn starts_showing_the_whole_trace() {
        let m = model();
        assert_eq!((m.view.start, m.view.end), (0.0, 1_000_000.0));
        assert_eq!(m.content_height(), 84.0 + 750.0);
    }

    #[test]
    fn the_wheel_zooms_at_the_cursor_and_pinch_zooms_too() {
        let mut m = model();
        m.wheel(Wheel {
            x: 250.0,
            dx: 0.0,
            dy: -100.0,
            ctrl: false,
            shift: false,
        });
        assert!(m.view.duration() < 1_000_000.0);
        assert!((m.view.time_at(250.0) - 250_000.0).abs() < 1e-6);
        let before = m.view.duration();
        m.wheel(Wheel {
            x: 250.0,
            dx: 0.0,
            dy: -10.0,
            ctrl: true,
            shift: false,
        });
        assert!(m.view.duration() < before);
    }

    #[test]
    fn horizontal_swipes_pan_and_shift_scrolls_lanes() {
        let mut m = model();
        m.show(0.0, 100_000.0);
        m.wheel(Wheel {
            x: 0.0,
            dx: 100.0,
            dy: 5.0,
            ctrl: false,
            shift: false,
        });
        assert_eq!(m.view.start, 10_000.0);
        m.wheel(Wheel {
            x: 0.0,
            dx: 0.0,
            dy: 120.0,
            ctrl: false,
            shift: true,
        });
        assert_eq!(m.scroll, 120.0);
        m.scroll_by(1e9);
        assert_eq!(m.scroll, m.max_scroll());
        assert_eq!(m.max_scroll(), 834.0 - 400.0);
    }

    #[test]
    fn points_map_to_lanes_and_rows() {
        let mut m = model();
        assert!(m.hit_lane(10.0).is_none()); // the ruler
        let (lane, row) = m.hit_lane(RULER_HEIGHT + 5.0).unwrap();
        assert_eq!((lane.thread, row), (0, None));
        let (lane, row) = m.hit_lane(RULER_HEIGHT + 22.0 + 18.0 + 1.0).unwrap();
        assert_eq!((lane.thread, row), (0, Some(1)));
        m.scroll_by(84.0);
        let (lane, row) = m.hit_lane(RULER_HEIGHT + 23.0).unwrap();
        assert_eq!((lane.thread, row), (1, Some(0)));
    }

    #[test]
    fn the_first_view_fits_the_calls_and_zooming_out_shows_everything() {
        let mut m = ChartModel::new(1000.0, [(0, 1)], Some((900.0, 950.0)));
        m.resize(100.0, 100.0);
        assert_eq!((m.view.start, m.view.end), (899.0, 951.0));
        m.zoom_at(1e-9, 50.0);
        assert_eq!((m.view.start, m.view.end), (0.0, 1000.0));
        m.reset();
        assert_eq!((m.view.start, m.view.end), (899.0, 951.0));
    }

    #[test]
    fn counter_tracks_stack_below_the_lanes() {
        let mut m = model();
        m.add_counters(2);
        assert_eq!(m.counters[0].top, 834.0);
        assert_eq!(
            m.content_height(),
            834.0 + 2.0 * (22.0 + COUNTER_HEIGHT + 8.0)
        );
    }

    #[test]
    fn a_collapsed_lane_keeps_only_its_header() {
        let mut m = model();
        m.add_counters(1);
        m.toggle_lane(0);
        assert!(m.is_collapsed(0));
        assert_eq!(m.lanes[0].rows, 0);
        assert_eq!(m.lanes[1].top, 22.0 + 8.0);
        assert_eq!(m.counters[0].top, 30.0 + 750.0);
        m.toggle_lane(0);
        assert_eq!(m.lanes[0].rows, 3);
    }

    #[test]
    fn arranged_lanes_stack_in_the_chosen_order_without_hidden_ones() {
        let mut m = ChartModel::new(1000.0, [(0, 3), (1, 40), (2, 1)], None);
        m.resize(1000.0, 424.0);
        m.add_counters(2);
        m.arrange(&[2, 0], &[1]);
        let order: Vec<usize> = m.lanes.iter().map(|l| l.thread).collect();
        assert_eq!(order, [2, 0]);
        assert_eq!(m.lanes[1].top, 22.0 + 18.0 + 8.0);
        assert_eq!(m.counters.len(), 1);
        assert_eq!(m.counters[0].counter, 1);
        assert_eq!(m.counters[0].top, 48.0 + 84.0);
        // Collapsing keeps the arrangement.
        m.toggle_lane(0);
        assert_eq!(m.lanes[1].rows, 0);
        assert_eq!(m.lanes.len(), 2);
    }

    #[test]
    fn headers_and_their_buttons_are_found() {
        let mut m = model();
        m.add_counters(1);
        assert_eq!(
            m.track_at(RULER_HEIGHT + 1.0),
            Some((Track::Thread(0), true))
        );
        assert_eq!(
            m.track_at(RULER_HEIGHT + 30.0),
            Some((Track::Thread(0), false))
        );
        assert_eq!(
            m.track_at(RULER_HEIGHT + 835.0),
            Some((Track::Counter(0), true))
        );
        assert_eq!(
            m.track_at(RULER_HEIGHT + 860.0),
            Some((Track::Counter(0), false))
        );
        let hide = HeaderButton::Hide.x(1000.0);
        assert_eq!(
            HeaderButton::at(1000.0, hide + 1.0),
            Some(HeaderButton::Hide)
        );
        assert_eq!(
            HeaderButton::at(1000.0, hide - 1.0),
            Some(HeaderButton::Down)
        );
        assert_eq!(HeaderButton::at(1000.0, 100.0), None);
        assert_eq!(
            HeaderButton::at(200.0, HeaderButton::Hide.x(200.0) + 1.0),
            None
        );
    }

    #[test]
    fn reset_returns_to_the_whole_trace() {
        let mut m = model();
        m.zoom_at(10.0, 500.0);
        m.scroll_by(50.0);
        m.reset();
        assert_eq!(
            (m.view.start, m.view.end, m.scroll),
            (0.0, 1_000_000.0, 0.0)
        );
    }

    #[test]
    fn a_dragged_lane_lands_on_the_top_of_the_lane_under_it() {
        let mut m = model();
        assert_eq!(m.drop_line_y(RULER_HEIGHT + 10.0), RULER_HEIGHT);
        assert_eq!(m.drop_line_y(RULER_HEIGHT + 100.0), RULER_HEIGHT + 84.0);
        assert_eq!(
            m.drop_line_y(0.0),
            RULER_HEIGHT,
            "above them all: the first"
        );
        m.scroll_by(50.0);
        assert_eq!(
            m.drop_line_y(RULER_HEIGHT + 100.0),
            RULER_HEIGHT + 84.0 - 50.0
        );
    }

    #[test]
    fn the_scrollbar_thumb_follows_the_scroll() {
        let mut m = model();
        let (y, thumb) = m.scrollbar_thumb().unwrap();
        assert_eq!(y, RULER_HEIGHT);
        assert!((thumb - 400.0 * 400.0 / 834.0).abs() < 1e-9);
        m.scroll_by(1e9);
        let (y, _) = m.scrollbar_thumb().unwrap();
        assert!((y + thumb - 424.0).abs() < 1e-9, "at the bottom");
        m.resize(1000.0, 2000.0);
        assert_eq!(m.scrollbar_thumb(), None, "everything fits");
    }
}
