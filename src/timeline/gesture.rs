//! What a press, drag and release of the pointer on the timeline mean: a
//! press on the ruler drags out a time range, a press on a lane header
//! (away from its buttons) drags that lane to a new place, a press anywhere
//! else pans the view; a release that travelled no more than a few pixels
//! is a click (a header button, a lane title that collapses its lane, or a
//! span). The machine only decides; the component carries out the
//! [`Effect`]s. No web types, so it is tested natively, like `keys`.

use super::{ChartModel, HeaderButton, Hit, SpanRef, Track, RULER_HEIGHT};

/// Pointer travel (px) after which a press is a drag, not a click.
pub const DRAG_THRESHOLD_PX: f64 = 3.0;

/// How far from the left a click on a lane header toggles the lane.
const LANE_TITLE_PX: f64 = 320.0;

/// What the component must do after a pointer event.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Effect {
    /// Nothing to do.
    None,
    /// Not dragging: what is under the pointer may have changed.
    Hover,
    /// Move the view by (dx, dy) px (pan across, scroll down).
    Pan { dx: f64, dy: f64 },
    /// The range being dragged along the ruler changed: repaint.
    RangeDragged,
    /// A lane is being dragged by its header: show the grabbing cursor
    /// and repaint (to move the drop line).
    LaneDragged,
    /// A range was dragged out along the ruler, between these canvas x
    /// (`None`: it was a click, which clears the range).
    SelectRange(Option<(f64, f64)>),
    /// A lane dragged by its header was dropped at canvas y.
    MoveLane { track: Track, y: f64 },
    /// A click on one of a header's buttons.
    HeaderButton { track: Track, button: HeaderButton },
    /// A click on a lane's title: collapse or expand that thread's lane.
    ToggleLane(usize),
    /// A click selects this span, or clears the selection.
    ClickSpan(Option<SpanRef>),
}

/// A press in progress.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Press {
    /// Where the pointer was last (for a pan, where the last move ended).
    x: f64,
    y: f64,
    moved: bool,
    /// Started on the ruler: selects a time range from this x.
    range_from: Option<f64>,
    /// Started on a lane header: moves that lane to where it is dropped.
    track: Option<Track>,
}

/// The pointer-gesture state machine.
#[derive(Clone, Debug, Default)]
pub struct Gesture {
    press: Option<Press>,
}

impl Gesture {
    /// True while the pointer is pressed (a click or a drag in progress).
    pub fn is_pressed(&self) -> bool {
        self.press.is_some()
    }

    /// The range being dragged along the ruler, as canvas x (from, to).
    pub fn range_px(&self) -> Option<(f64, f64)> {
        let press = self.press?;
        Some((press.range_from?, press.x))
    }

    /// True while a lane is being dragged by its header.
    pub fn dragging_lane(&self) -> bool {
        matches!(
            self.press,
            Some(Press {
                track: Some(_),
                moved: true,
                ..
            })
        )
    }

    /// The main button went down at canvas (x, y).
    pub fn on_down(&mut self, model: &ChartModel, x: f64, y: f64) {
        // A header (away from its buttons) drags its lane.
        let track = model
            .track_at(y)
            .filter(|&(_, header)| header && HeaderButton::at(model.view.width, x).is_none())
            .map(|(track, _)| track);
        self.press = Some(Press {
            x,
            y,
            moved: false,
            range_from: (y < RULER_HEIGHT).then_some(x),
            track,
        });
    }

    /// The pointer moved to canvas (x, y).
    pub fn on_move(&mut self, x: f64, y: f64) -> Effect {
        let Some(press) = &mut self.press else {
            return Effect::Hover;
        };
        if press.range_from.is_some() {
            press.x = x;
            press.moved = true;
            return Effect::RangeDragged;
        }
        let (dx, dy) = (x - press.x, y - press.y);
        if !press.moved && dx.hypot(dy) <= DRAG_THRESHOLD_PX {
            return Effect::None;
        }
        press.moved = true;
        if press.track.is_some() {
            return Effect::LaneDragged;
        }
        press.x = x;
        press.y = y;
        Effect::Pan { dx: -dx, dy: -dy }
    }

    /// The button came up at canvas (x, y); `hit` finds what is there.
    /// `None` when no press was in progress.
    pub fn on_up(
        &mut self,
        model: &ChartModel,
        x: f64,
        y: f64,
        hit: impl FnOnce() -> Option<Hit>,
    ) -> Option<Effect> {
        let press = self.press.take()?;
        if let Some(from) = press.range_from {
            let (a, b) = (from.min(x), from.max(x));
            return Some(Effect::SelectRange(
                ((b - a) > DRAG_THRESHOLD_PX).then_some((a, b)),
            ));
        }
        if let (Some(track), true) = (press.track, press.moved) {
            return Some(Effect::MoveLane { track, y });
        }
        if press.moved {
            return Some(Effect::None);
        }
        Some(click(model, x, y, hit))
    }
}

/// A press and release in one place at canvas (x, y).
fn click(model: &ChartModel, x: f64, y: f64, hit: impl FnOnce() -> Option<Hit>) -> Effect {
    if let Some((track, true)) = model.track_at(y) {
        if let Some(button) = HeaderButton::at(model.view.width, x) {
            return Effect::HeaderButton { track, button };
        }
    }
    let hit = hit();
    // A click on a lane's title collapses or expands the lane.
    if hit.is_none() && x < LANE_TITLE_PX {
        let header = model.hit_lane(y).filter(|(_, row)| row.is_none());
        if let Some((lane, _)) = header {
            return Effect::ToggleLane(lane.thread);
        }
    }
    Effect::ClickSpan(match hit {
        Some(Hit::Span(s)) => Some(s),
        _ => None,
    })
}

/// The dragged state of the minimap: a press starts it, a release ends it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MinimapDrag {
    pressed: bool,
}

impl MinimapDrag {
    /// A pointer event on the minimap: pressed (`Some(true)`), moved
    /// (`Some(false)`) or released (`None`). True when the window should
    /// follow the pointer.
    pub fn on_pointer(&mut self, pressed: Option<bool>) -> bool {
        match pressed {
            Some(true) => self.pressed = true,
            Some(false) => {}
            None => self.pressed = false,
        }
        pressed.is_some() && self.pressed
    }
}

/// The window (start, end) a minimap `width` px wide over a trace of
/// `duration` shows when pointed at x: one of the same `span`, centred there.
pub fn minimap_window(x: f64, width: f64, duration: f64, span: f64) -> (f64, f64) {
    let t = x / width.max(1.0) * duration;
    let half = span / 2.0;
    (t - half, t + half)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two lanes under the ruler: thread 0 with 3 rows (header at 24..46),
    /// thread 1 with 40 rows (header at 108..130); 1000 px wide.
    fn model() -> ChartModel {
        let mut m = ChartModel::new(1_000_000.0, [(0, 3), (1, 40)], None);
        m.resize(1000.0, 424.0);
        m
    }

    const SPAN: SpanRef = SpanRef { thread: 0, span: 7 };

    #[test]
    fn a_small_wobble_is_still_a_click() {
        let m = model();
        let mut g = Gesture::default();
        g.on_down(&m, 500.0, 60.0);
        assert!(g.is_pressed());
        assert_eq!(g.on_move(502.0, 61.0), Effect::None);
        let up = g.on_up(&m, 502.0, 61.0, || Some(Hit::Span(SPAN)));
        assert_eq!(up, Some(Effect::ClickSpan(Some(SPAN))));
        assert!(!g.is_pressed());
        assert_eq!(g.on_up(&m, 0.0, 0.0, || None), None, "no press, no effect");
    }

    #[test]
    fn a_drag_pans_by_each_move_and_is_no_click() {
        let m = model();
        let mut g = Gesture::default();
        g.on_down(&m, 500.0, 200.0);
        assert_eq!(g.on_move(510.0, 195.0), Effect::Pan { dx: -10.0, dy: 5.0 });
        // Once moving, even a small move pans, from where the last ended.
        assert_eq!(g.on_move(511.0, 195.0), Effect::Pan { dx: -1.0, dy: 0.0 });
        assert_eq!(
            g.on_up(&m, 511.0, 195.0, || panic!("a drag hits nothing")),
            Some(Effect::None)
        );
        assert_eq!(g.on_move(600.0, 100.0), Effect::Hover);
    }

    #[test]
    fn dragging_along_the_ruler_selects_a_range() {
        let m = model();
        let mut g = Gesture::default();
        g.on_down(&m, 300.0, 10.0);
        assert_eq!(g.on_move(250.0, 40.0), Effect::RangeDragged);
        assert_eq!(g.range_px(), Some((300.0, 250.0)));
        assert_eq!(
            g.on_up(&m, 200.0, 40.0, || None),
            Some(Effect::SelectRange(Some((200.0, 300.0))))
        );
        // A click on the ruler clears the range.
        g.on_down(&m, 300.0, 10.0);
        assert_eq!(
            g.on_up(&m, 302.0, 10.0, || None),
            Some(Effect::SelectRange(None))
        );
        assert_eq!(g.range_px(), None);
    }

    #[test]
    fn a_header_drags_its_lane_once_past_the_threshold() {
        let m = model();
        let mut g = Gesture::default();
        g.on_down(&m, 500.0, 30.0);
        assert!(!g.dragging_lane());
        assert_eq!(g.on_move(500.0, 32.0), Effect::None);
        assert_eq!(g.on_move(500.0, 120.0), Effect::LaneDragged);
        assert!(g.dragging_lane());
        assert_eq!(
            g.on_up(&m, 500.0, 120.0, || None),
            Some(Effect::MoveLane {
                track: Track::Thread(0),
                y: 120.0
            })
        );
    }

    #[test]
    fn header_buttons_and_titles_are_clicks() {
        let m = model();
        let mut g = Gesture::default();
        let hide = HeaderButton::Hide.x(1000.0) + 2.0;
        // A press on a button does not pick the lane up.
        g.on_down(&m, hide, 30.0);
        assert_eq!(g.on_move(hide, 60.0), Effect::Pan { dx: 0.0, dy: -30.0 });
        g.on_up(&m, hide, 60.0, || None);
        g.on_down(&m, hide, 30.0);
        assert_eq!(
            g.on_up(&m, hide, 30.0, || None),
            Some(Effect::HeaderButton {
                track: Track::Thread(0),
                button: HeaderButton::Hide
            })
        );
        g.on_down(&m, 40.0, 115.0);
        assert_eq!(
            g.on_up(&m, 40.0, 115.0, || None),
            Some(Effect::ToggleLane(1))
        );
        // Far from the title, or on a marker, the header click selects nothing.
        g.on_down(&m, 600.0, 115.0);
        assert_eq!(
            g.on_up(&m, 600.0, 115.0, || None),
            Some(Effect::ClickSpan(None))
        );
        let marker = Hit::Instant {
            thread: 1,
            instant: 0,
        };
        g.on_down(&m, 40.0, 115.0);
        assert_eq!(
            g.on_up(&m, 40.0, 115.0, || Some(marker)),
            Some(Effect::ClickSpan(None))
        );
    }

    #[test]
    fn the_minimap_follows_only_a_pressed_pointer() {
        let mut drag = MinimapDrag::default();
        assert!(!drag.on_pointer(Some(false)));
        assert!(drag.on_pointer(Some(true)));
        assert!(drag.on_pointer(Some(false)));
        assert!(!drag.on_pointer(None));
        assert!(!drag.on_pointer(Some(false)));
        assert_eq!(minimap_window(250.0, 1000.0, 400.0, 40.0), (80.0, 120.0));
    }
}
