//! The diff view's pure parts: which source of the comparison trace matches
//! the one picked for the trace on screen, the colour of a node by its change
//! in self time (red grew, blue shrank, stronger for a larger relative
//! change), and the order of the table of changes.

use super::source::SourceKey;
use flamedrop_core::analysis::FunctionDiff;
use flamedrop_core::Trace;

/// The source of `new` that matches `key` of `base`: the same thread (by
/// id, then by position), else the same kind of source when `new` offers it,
/// else its default.
pub fn counterpart(key: SourceKey, base: &Trace, new: &Trace) -> SourceKey {
    if let SourceKey::Thread(t) = key {
        let same_id = base.threads.get(t as usize).and_then(|bt| {
            new.threads
                .iter()
                .position(|nt| nt.id == bt.id && nt.name == bt.name)
        });
        return match same_id {
            Some(i) => SourceKey::Thread(i as u32),
            None if (t as usize) < new.threads.len() => SourceKey::Thread(t),
            None => SourceKey::AllThreads.or_available(new),
        };
    }
    key.or_available(new)
}

/// How much a node changed: −1 (all its self time went) … 1 (all of it is
/// new), relative to the larger of the two self times.
pub fn relative_change(base_self: i64, new_self: i64) -> f64 {
    let larger = base_self.max(new_self).max(1) as f64;
    ((new_self - base_self) as f64 / larger).clamp(-1.0, 1.0)
}

/// The fill of a node whose self time went from `base_self` to `new_self`.
pub fn diff_fill(base_self: i64, new_self: i64, dark: bool) -> String {
    let r = relative_change(base_self, new_self);
    let neutral: [f64; 3] = if dark {
        [168.0, 172.0, 182.0]
    } else {
        [226.0, 224.0, 220.0]
    };
    let target: [f64; 3] = match (r >= 0.0, dark) {
        (true, false) => [222.0, 60.0, 48.0],
        (true, true) => [239.0, 94.0, 80.0],
        (false, false) => [52.0, 110.0, 222.0],
        (false, true) => [88.0, 146.0, 245.0],
    };
    // A gentle curve, so small changes still show a tint.
    let t = r.abs().sqrt();
    let mix = |i: usize| (neutral[i] + (target[i] - neutral[i]) * t).round() as u8;
    format!("rgb({},{},{})", mix(0), mix(1), mix(2))
}

/// A column of the table of changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Column {
    Name,
    BaseSelf,
    NewSelf,
    DeltaSelf,
    DeltaPercent,
    BaseCalls,
    NewCalls,
}

impl Column {
    /// Every column, in table order, with its header.
    pub const ALL: [(Column, &'static str); 7] = [
        (Column::Name, "Function"),
        (Column::BaseSelf, "Base self"),
        (Column::NewSelf, "New self"),
        (Column::DeltaSelf, "Δ self"),
        (Column::DeltaPercent, "Δ %"),
        (Column::BaseCalls, "Base calls"),
        (Column::NewCalls, "New calls"),
    ];

    /// The `data-sort` name.
    pub fn name(self) -> &'static str {
        match self {
            Column::Name => "name",
            Column::BaseSelf => "base-self",
            Column::NewSelf => "new-self",
            Column::DeltaSelf => "delta-self",
            Column::DeltaPercent => "delta-percent",
            Column::BaseCalls => "base-calls",
            Column::NewCalls => "new-calls",
        }
    }
}

/// Orders `rows` by `column`; numbers by size of the change for the delta
/// columns (largest first when `descending`), names alphabetically.
pub fn sort_rows(rows: &mut [FunctionDiff], column: Column, descending: bool) {
    let key = |f: &FunctionDiff| -> f64 {
        match column {
            Column::Name => 0.0,
            Column::BaseSelf => f.base.self_time as f64,
            Column::NewSelf => f.new.self_time as f64,
            Column::DeltaSelf => f.delta_self.abs() as f64,
            Column::DeltaPercent => f.self_ratio().map_or(f64::INFINITY, f64::abs),
            Column::BaseCalls => f.base.calls as f64,
            Column::NewCalls => f.new.calls as f64,
        }
    };
    rows.sort_by(|a, b| {
        let order = if column == Column::Name {
            a.name.cmp(&b.name)
        } else {
            key(a).total_cmp(&key(b))
        };
        let order = if descending { order.reverse() } else { order };
        order.then_with(|| a.name.cmp(&b.name))
    });
}

/// The change in self time as a percentage of the base (`new` when the
/// base had none).
pub fn percent(f: &FunctionDiff) -> String {
    match f.self_ratio() {
        Some(r) => format!("{:+.1}%", 100.0 * r),
        None if f.delta_self == 0 => "0%".to_owned(),
        None => "new".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flamedrop_core::analysis::diff::Weights;

    fn row(name: &str, base_self: i64, new_self: i64) -> FunctionDiff {
        FunctionDiff {
            name: name.to_owned(),
            base: Weights {
                calls: 1,
                total: base_self,
                self_time: base_self,
            },
            new: Weights {
                calls: 2,
                total: new_self,
                self_time: new_self,
            },
            delta_self: new_self - base_self,
            delta_total: new_self - base_self,
        }
    }

    #[test]
    fn colours_go_red_for_growth_and_blue_for_shrinking() {
        assert_eq!(diff_fill(100, 100, false), "rgb(226,224,220)");
        assert_eq!(diff_fill(0, 100, false), "rgb(222,60,48)");
        assert_eq!(diff_fill(100, 0, false), "rgb(52,110,222)");
        let slight = diff_fill(100, 110, false);
        assert!(slight != diff_fill(100, 100, false) && slight != diff_fill(0, 100, false));
        assert!((relative_change(100, 50) + 0.5).abs() < 1e-9);
    }

    #[test]
    fn rows_sort_by_any_column() {
        let mut rows = vec![row("b", 10, 40), row("a", 100, 90), row("c", 0, 5)];
        sort_rows(&mut rows, Column::DeltaSelf, true);
        let names: Vec<&str> = rows.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["b", "a", "c"]);
        sort_rows(&mut rows, Column::Name, false);
        assert_eq!(rows[0].name, "a");
        sort_rows(&mut rows, Column::DeltaPercent, true);
        assert_eq!(rows[0].name, "c"); // new: an unbounded change
        assert_eq!(percent(&rows[0]), "new");
        assert_eq!(percent(&rows[1]), "+300.0%");
    }
}
