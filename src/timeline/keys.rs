//! Keyboard navigation as in Perfetto: W/S zoom, A/D pan, held down for
//! smooth motion (arrow keys pan and scroll the lanes), plus single-step
//! `+`/`-` and `0` to reset.

use super::ChartModel;

/// Held keys zoom by this factor per second.
const ZOOM_PER_SECOND: f64 = 8.0;
/// Held keys pan this many viewport widths per second.
const PAN_WIDTHS_PER_SECOND: f64 = 0.9;
/// Held keys scroll lanes this many px per second.
const SCROLL_PX_PER_SECOND: f64 = 600.0;
/// One press of `+` or `-` zooms by this factor.
pub const STEP_ZOOM: f64 = 1.6;

/// A motion key currently held down.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Motion {
    ZoomIn,
    ZoomOut,
    Left,
    Right,
    Up,
    Down,
}

/// What a key press means to the chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyAction {
    /// Held motion (start on keydown, stop on keyup).
    Hold(Motion),
    ZoomInStep,
    ZoomOutStep,
    Reset,
    ClearSelection,
}

/// Maps `KeyboardEvent.key` to an action; letters ignore case.
pub fn action_for(key: &str) -> Option<KeyAction> {
    use KeyAction::*;
    use Motion::*;
    Some(match key {
        "w" | "W" => Hold(ZoomIn),
        "s" | "S" => Hold(ZoomOut),
        "a" | "A" | "ArrowLeft" => Hold(Left),
        "d" | "D" | "ArrowRight" => Hold(Right),
        "ArrowUp" => Hold(Up),
        "ArrowDown" => Hold(Down),
        "+" | "=" => ZoomInStep,
        "-" | "_" => ZoomOutStep,
        "0" => Reset,
        "Escape" => ClearSelection,
        _ => return None,
    })
}

/// The set of held motion keys.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HeldKeys {
    held: Vec<Motion>,
}

impl HeldKeys {
    /// A key went down; true if it was not already held.
    pub fn press(&mut self, m: Motion) -> bool {
        if self.held.contains(&m) {
            return false;
        }
        self.held.push(m);
        true
    }

    /// A key went up.
    pub fn release(&mut self, m: Motion) {
        self.held.retain(|&h| h != m);
    }

    /// Forget everything (the window lost focus).
    pub fn clear(&mut self) {
        self.held.clear();
    }

    /// True while any motion key is held.
    pub fn any(&self) -> bool {
        !self.held.is_empty()
    }

    /// Moves the chart for `dt_ms` of held keys, zooming around `anchor_x`.
    pub fn apply(&self, model: &mut ChartModel, dt_ms: f64, anchor_x: f64) {
        let dt = (dt_ms / 1000.0).clamp(0.0, 0.1); // a stalled frame must not jump
        for &m in &self.held {
            match m {
                Motion::ZoomIn => model.zoom_at(ZOOM_PER_SECOND.powf(dt), anchor_x),
                Motion::ZoomOut => model.zoom_at(ZOOM_PER_SECOND.powf(-dt), anchor_x),
                Motion::Left => model.pan_px(-PAN_WIDTHS_PER_SECOND * dt * model.view.width),
                Motion::Right => model.pan_px(PAN_WIDTHS_PER_SECOND * dt * model.view.width),
                Motion::Up => model.scroll_by(-SCROLL_PX_PER_SECOND * dt),
                Motion::Down => model.scroll_by(SCROLL_PX_PER_SECOND * dt),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wasd_and_arrows_map_like_perfetto() {
        assert_eq!(action_for("w"), Some(KeyAction::Hold(Motion::ZoomIn)));
        assert_eq!(action_for("D"), Some(KeyAction::Hold(Motion::Right)));
        assert_eq!(action_for("ArrowLeft"), Some(KeyAction::Hold(Motion::Left)));
        assert_eq!(action_for("0"), Some(KeyAction::Reset));
        assert_eq!(action_for("x"), None);
    }

    #[test]
    fn held_keys_move_in_proportion_to_time() {
        let mut model = ChartModel::new(1000.0, [(0, 1)], None);
        model.resize(100.0, 100.0);
        let mut keys = HeldKeys::default();
        assert!(keys.press(Motion::ZoomIn));
        assert!(!keys.press(Motion::ZoomIn));
        keys.apply(&mut model, 50.0, 50.0);
        let zoomed = model.view.duration();
        assert!(zoomed < 1000.0 && zoomed > 500.0);
        keys.release(Motion::ZoomIn);
        keys.press(Motion::Right);
        let start = model.view.start;
        keys.apply(&mut model, 50.0, 50.0);
        assert!(model.view.start > start);
        keys.clear();
        assert!(!keys.any());
    }

    #[test]
    fn a_stalled_frame_moves_at_most_a_tenth_of_a_second() {
        let mut model = ChartModel::new(1000.0, [(0, 1)], None);
        model.resize(100.0, 100.0);
        let mut keys = HeldKeys::default();
        keys.press(Motion::ZoomIn);
        keys.apply(&mut model, 10_000.0, 50.0);
        assert!((model.view.duration() - 1000.0 / 8f64.powf(0.1)).abs() < 1e-6);
    }
}
