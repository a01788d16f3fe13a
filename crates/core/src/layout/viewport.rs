//! [`Viewport`]: the visible time window and how it maps onto pixels, with
//! the zoom and pan moves the flame chart's inputs turn into.

/// The visible time window `[start, end]` (offsets from the trace origin, in
/// the trace's time unit) drawn across `width` CSS pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Viewport {
    pub start: f64,
    pub end: f64,
    pub width: f64,
}

/// The narrowest window a viewer may zoom to, in time units: one unit (1 ns
/// for uftrace) across the whole chart is already far past useful.
pub const MIN_DURATION: f64 = 1.0;

impl Viewport {
    /// A window over `[start, end]` at `width` px; a degenerate window is
    /// widened to `MIN_DURATION` and the width kept at least one pixel.
    pub fn new(start: f64, end: f64, width: f64) -> Self {
        let end = if end - start < MIN_DURATION {
            start + MIN_DURATION
        } else {
            end
        };
        Viewport {
            start,
            end,
            width: width.max(1.0),
        }
    }

    /// Length of the window in time units.
    pub fn duration(&self) -> f64 {
        self.end - self.start
    }

    /// Pixels per time unit.
    pub fn scale(&self) -> f64 {
        self.width / self.duration()
    }

    /// The x (px from the left edge) of time `t`.
    pub fn x_of(&self, t: f64) -> f64 {
        (t - self.start) * self.scale()
    }

    /// The time under x.
    pub fn time_at(&self, x: f64) -> f64 {
        self.start + x / self.scale()
    }

    /// Zooms by `factor` (> 1 zooms in) keeping the time under `x` in place,
    /// then keeps the window inside `bounds`.
    pub fn zoom_at(&mut self, factor: f64, x: f64, bounds: (f64, f64)) {
        if !(factor.is_finite() && factor > 0.0) {
            return;
        }
        let anchor = self.time_at(x);
        let duration = (self.duration() / factor).max(MIN_DURATION);
        let left = x / self.width;
        self.start = anchor - duration * left;
        self.end = self.start + duration;
        self.clamp(bounds);
    }

    /// Moves the window right by `dx` pixels (content moves left), then keeps
    /// it inside `bounds`.
    pub fn pan_px(&mut self, dx: f64, bounds: (f64, f64)) {
        if !dx.is_finite() {
            return;
        }
        let dt = dx / self.scale();
        self.start += dt;
        self.end += dt;
        self.clamp(bounds);
    }

    /// Keeps the window no wider than `bounds` and inside it, and no narrower
    /// than `MIN_DURATION`.
    pub fn clamp(&mut self, bounds: (f64, f64)) {
        let (lo, hi) = (bounds.0, bounds.1.max(bounds.0 + MIN_DURATION));
        let duration = self.duration().clamp(MIN_DURATION, hi - lo);
        let start = self.start.clamp(lo, hi - duration);
        self.start = start;
        self.end = start + duration;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_and_pixels_round_trip() {
        let v = Viewport::new(100.0, 300.0, 1000.0);
        assert_eq!(v.scale(), 5.0);
        assert_eq!(v.x_of(150.0), 250.0);
        assert_eq!(v.time_at(250.0), 150.0);
    }

    #[test]
    fn zoom_keeps_the_time_under_the_cursor() {
        let mut v = Viewport::new(0.0, 1000.0, 500.0);
        let before = v.time_at(100.0);
        v.zoom_at(4.0, 100.0, (0.0, 1000.0));
        assert!((v.time_at(100.0) - before).abs() < 1e-9);
        assert!((v.duration() - 250.0).abs() < 1e-9);
    }

    #[test]
    fn zoom_stops_at_one_unit_and_at_the_bounds() {
        let mut v = Viewport::new(0.0, 1000.0, 500.0);
        v.zoom_at(1e12, 250.0, (0.0, 1000.0));
        assert_eq!(v.duration(), MIN_DURATION);
        v.zoom_at(1e-12, 250.0, (0.0, 1000.0));
        assert_eq!((v.start, v.end), (0.0, 1000.0));
    }

    #[test]
    fn pan_stays_inside_the_bounds() {
        let mut v = Viewport::new(0.0, 100.0, 100.0);
        v.pan_px(-50.0, (0.0, 1000.0));
        assert_eq!(v.start, 0.0);
        v.pan_px(5000.0, (0.0, 1000.0));
        assert_eq!((v.start, v.end), (900.0, 1000.0));
    }

    #[test]
    fn nonsense_inputs_change_nothing() {
        let mut v = Viewport::new(0.0, 100.0, 100.0);
        v.zoom_at(f64::NAN, 10.0, (0.0, 100.0));
        v.zoom_at(0.0, 10.0, (0.0, 100.0));
        v.pan_px(f64::INFINITY, (0.0, 100.0));
        assert_eq!((v.start, v.end), (0.0, 100.0));
    }

    #[test]
    fn a_degenerate_window_gets_one_unit() {
        let v = Viewport::new(5.0, 5.0, 0.0);
        assert_eq!(v.duration(), MIN_DURATION);
        assert_eq!(v.width, 1.0);
    }
}
