//! A counter track's area chart as bars: the largest value of each pixel
//! column, neighbouring columns of one height drawn as one rectangle, tops
//! on whole device pixels (so the browser fills them without anti-aliasing).
//! Pure, so it is tested natively; the canvas painter draws the bars.

/// Where a counter's values go on the canvas.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BarScale {
    /// The canvas y of the chart's bottom (the lowest value).
    pub base: f64,
    /// The lowest value.
    pub lo: f64,
    /// px per unit of value.
    pub scale: f64,
    /// Device pixels per CSS px.
    pub dpr: f64,
}

impl BarScale {
    /// The top of a column's bar (at least 1 px tall), on a device pixel;
    /// `None` for a column without values.
    pub fn top(&self, value: Option<f64>) -> Option<f64> {
        value.map(|v| {
            ((self.base - ((v - self.lo) * self.scale).max(1.0)) * self.dpr).floor() / self.dpr
        })
    }
}

/// Calls `bar(x, width, top)` for each run of neighbouring columns whose
/// bars have the same top (columns without values are skipped); true if
/// there was any bar.
pub fn for_each_bar(
    columns: &[Option<f64>],
    scale: &BarScale,
    mut bar: impl FnMut(usize, usize, f64),
) -> bool {
    let mut any = false;
    let mut x = 0;
    while let Some(&column) = columns.get(x) {
        let top = scale.top(column);
        let run = columns[x..]
            .iter()
            .take_while(|&&c| scale.top(c) == top)
            .count()
            .max(1);
        if let Some(top) = top {
            bar(x, run, top);
            any = true;
        }
        x += run;
    }
    any
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCALE: BarScale = BarScale {
        base: 100.0,
        lo: 0.0,
        scale: 10.0,
        dpr: 1.0,
    };

    fn bars(columns: &[Option<f64>], scale: &BarScale) -> Vec<(usize, usize, f64)> {
        let mut out = Vec::new();
        for_each_bar(columns, scale, |x, w, top| out.push((x, w, top)));
        out
    }

    #[test]
    fn equal_neighbours_become_one_bar_and_gaps_none() {
        let columns = [Some(2.0), Some(2.0), None, None, Some(5.0), Some(2.0)];
        assert_eq!(
            bars(&columns, &SCALE),
            [(0, 2, 80.0), (4, 1, 50.0), (5, 1, 80.0)]
        );
        assert!(!for_each_bar(&[None, None], &SCALE, |_, _, _| {}));
    }

    #[test]
    fn the_lowest_value_keeps_one_pixel_and_tops_sit_on_device_pixels() {
        assert_eq!(SCALE.top(Some(0.0)), Some(99.0));
        let half = BarScale { dpr: 2.0, ..SCALE };
        // 100 - 1.23 * 10 = 87.7 → 175.4 device px, floored to 175 → 87.5.
        assert_eq!(half.top(Some(1.23)), Some(87.5));
        assert_eq!(half.top(None), None);
    }
}
