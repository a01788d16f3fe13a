//! The time ruler: tick spacing that reads well at any zoom, and labels in
//! ns/us/ms/s relative to the trace start.

use super::Viewport;
use std::fmt::Write;

/// Where ticks go: every `step` time units, from `first`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ticks {
    pub step: f64,
    pub first: f64,
}

impl Ticks {
    /// Tick times inside the viewport.
    pub fn iter(&self, view: &Viewport) -> impl Iterator<Item = f64> {
        let (step, first, end) = (self.step, self.first, view.end);
        (0..)
            .map(move |i| first + i as f64 * step)
            .take_while(move |&t| t <= end)
    }
}

/// Ticks at a 1-2-5 step no closer than `min_px` pixels, never below one unit.
pub fn ticks(view: &Viewport, min_px: f64) -> Ticks {
    let raw = (min_px / view.scale()).max(1.0);
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|&s| s >= raw)
        .unwrap_or(10.0 * magnitude);
    Ticks {
        step,
        first: (view.start / step).ceil() * step,
    }
}

/// Writes into `out` the label of tick time `t` (an offset from the trace
/// start) for ticks `step` apart, in the trace unit `unit` (`ns`, `us` or
/// `events`): the largest time unit in which the step is at least 0.001, so
/// labels read like uftrace's times ("39.74 ms" rather than "39740 us"), with
/// just the decimals the step needs.
pub fn tick_label(t: f64, step: f64, unit: &str, out: &mut String) {
    out.clear();
    if t == 0.0 {
        out.push('0');
        return;
    }
    if unit == "events" {
        let _ = write!(out, "{}", t.round());
        return;
    }
    let to_ns = if unit == "us" { 1e3 } else { 1.0 };
    let (t, step) = (t * to_ns, step * to_ns);
    let (scale, name) = [(1e9, "s"), (1e6, "ms"), (1e3, "us"), (1.0, "ns")]
        .into_iter()
        .find(|&(s, _)| step >= s * 1e-3)
        .unwrap_or((1.0, "ns"));
    let step_in_unit = step / scale;
    // Decimals needed to print the step exactly (steps are 1, 2 or 5 × 10^k).
    let mut decimals = 0;
    while decimals < 9 && (step_in_unit * 10f64.powi(decimals)).fract().abs() > 1e-6 {
        decimals += 1;
    }
    let _ = write!(out, "{:.*} {name}", decimals as usize, t / scale);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn label(t: f64, step: f64, unit: &str) -> String {
        let mut s = String::new();
        tick_label(t, step, unit, &mut s);
        s
    }

    #[test]
    fn steps_follow_1_2_5_and_keep_their_spacing() {
        let view = Viewport::new(0.0, 1_000_000.0, 1000.0); // 1000 ns per px
        let t = ticks(&view, 80.0);
        assert_eq!(t.step, 100_000.0);
        assert_eq!(t.first, 0.0);
        let view = Viewport::new(130.0, 170.0, 800.0); // 20 px per ns
        let t = ticks(&view, 80.0);
        assert_eq!((t.step, t.first), (5.0, 130.0));
        assert_eq!(t.iter(&view).count(), 9);
    }

    #[test]
    fn ticks_never_go_below_one_unit() {
        let view = Viewport::new(10.0, 11.0, 2000.0);
        let t = ticks(&view, 80.0);
        assert_eq!(t.step, 1.0);
    }

    #[test]
    fn labels_use_the_unit_of_the_step() {
        assert_eq!(label(0.0, 100_000.0, "ns"), "0");
        assert_eq!(label(300_000.0, 100_000.0, "ns"), "0.3 ms");
        assert_eq!(label(350_000.0, 50_000.0, "ns"), "0.35 ms");
        assert_eq!(label(39_740_000.0, 20_000.0, "ns"), "39.74 ms");
        assert_eq!(label(2_500_000.0, 500_000.0, "ns"), "2.5 ms");
        assert_eq!(label(3e9, 1e9, "ns"), "3 s");
        assert_eq!(label(1_234_567_895.0, 5.0, "ns"), "1234567.895 us");
        assert_eq!(label(17.0, 1.0, "ns"), "0.017 us"); // as uftrace prints 17 ns
        assert_eq!(label(1500.0, 500.0, "us"), "1.5 ms");
        assert_eq!(label(42.0, 2.0, "events"), "42");
    }
}
