//! The comparison of two traces function by function — the object
//! `flamedrop diff --json` prints and `window.flamedrop.diff()` returns —
//! and [`compare`], which picks what both traces are aggregated over and
//! refuses traces whose weights are in different units.
//!
//! A function's numbers are those of `uftrace report` (calls; total with
//! recursion counted once; self), read from the roots of the bottom-up tree,
//! so the same holds for sample sets and allocations. Deltas are new − base:
//! positive means the function grew.

use super::calltree::{AllocationWeight, CallTree, Source};
use super::diff::{diff_trees, DiffTree, Weights};
use super::{bottom_up, build_call_tree};
use crate::model::{StringTable, Trace};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// One function in both traces.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FunctionDiff {
    pub name: String,
    pub base: Weights,
    pub new: Weights,
    pub delta_self: i64,
    pub delta_total: i64,
}

impl FunctionDiff {
    /// The change in self time relative to the base (`None` when the
    /// function had no self time before: new, or only a caller).
    pub fn self_ratio(&self) -> Option<f64> {
        (self.base.self_time != 0).then(|| self.delta_self as f64 / self.base.self_time as f64)
    }
}

/// Two traces compared.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Comparison {
    /// The unit of every weight (`ns`, `us`, `events`, `bytes`, a sample
    /// weight's name).
    pub unit: String,
    /// Every function of either trace, largest change in self time first
    /// (ties: largest change in total, then by name).
    pub functions: Vec<FunctionDiff>,
}

/// The functions of two bottom-up trees (whose root children are the
/// functions), matched by name.
pub fn diff_functions(
    base_inverted: &CallTree,
    base_names: &StringTable,
    new_inverted: &CallTree,
    new_names: &StringTable,
) -> Vec<FunctionDiff> {
    let mut by_name: HashMap<&str, FunctionDiff> = HashMap::new();
    for (tree, names, is_base) in [
        (base_inverted, base_names, true),
        (new_inverted, new_names, false),
    ] {
        for n in tree.root().children.iter().filter_map(|&c| tree.get(c)) {
            let name = names.get(n.name);
            let f = by_name.entry(name).or_insert_with(|| FunctionDiff {
                name: name.to_owned(),
                base: Weights::default(),
                new: Weights::default(),
                delta_self: 0,
                delta_total: 0,
            });
            let w = if is_base { &mut f.base } else { &mut f.new };
            w.calls += n.calls;
            w.total += n.total;
            w.self_time += n.self_time;
        }
    }
    let mut functions: Vec<FunctionDiff> = by_name
        .into_values()
        .map(|mut f| {
            f.delta_self = f.new.self_time - f.base.self_time;
            f.delta_total = f.new.total - f.base.total;
            f
        })
        .collect();
    functions.sort_by(|a, b| {
        b.delta_self
            .abs()
            .cmp(&a.delta_self.abs())
            .then_with(|| b.delta_total.abs().cmp(&a.delta_total.abs()))
            .then_with(|| a.name.cmp(&b.name))
    });
    functions
}

/// What a trace is aggregated over when nothing is chosen: the spans of
/// every thread, or — for a trace without spans — its first sample set,
/// else its first allocation resource (bytes when sizes are bytes). The
/// viewer opens its aggregated views on the same source.
pub fn default_source(trace: &Trace) -> Source {
    let has_spans = trace.threads.iter().any(|t| !t.spans.is_empty());
    if !has_spans {
        if let Some(set) = trace
            .sample_sets
            .iter()
            .position(|s| !s.weight_names.is_empty())
        {
            return Source::Samples {
                set: set as u32,
                weight: 0,
            };
        }
        if let Some(a) = trace.allocations.first() {
            return Source::Allocations {
                resource: 0,
                weight: if a.size_unit == "bytes" {
                    AllocationWeight::Bytes
                } else {
                    AllocationWeight::Count
                },
                only_live: false,
            };
        }
    }
    Source::Spans {
        threads: (0..trace.threads.len() as u32).collect(),
    }
}

/// The unit of `source`'s weights in `trace`.
pub fn source_unit(trace: &Trace, source: &Source) -> String {
    match source {
        Source::Spans { .. } => trace.time_unit.map_or("ns", |u| u.name()).to_owned(),
        Source::Samples { set, weight } => trace
            .sample_sets
            .get(*set as usize)
            .and_then(|s| s.weight_names.get(*weight as usize))
            .cloned()
            .unwrap_or_default(),
        Source::SampleSets { sets, weight } => sets
            .first()
            .and_then(|set| trace.sample_sets.get(*set as usize))
            .and_then(|s| s.weight_names.get(*weight as usize))
            .cloned()
            .unwrap_or_default(),
        Source::Allocations { weight, .. } => match weight {
            AllocationWeight::Bytes => "bytes".to_owned(),
            AllocationWeight::Count => "count".to_owned(),
        },
    }
}

/// Refuses to compare weights of different units.
pub fn check_units(base_unit: &str, new_unit: &str) -> Result<(), String> {
    if base_unit == new_unit {
        Ok(())
    } else {
        Err(format!(
            "cannot compare these traces: the base is measured in {base_unit} and the new one in {new_unit}"
        ))
    }
}

/// Both traces over their default source: the function table and the
/// merged tree.
pub fn compare(base: &Trace, new: &Trace) -> Result<(Comparison, DiffTree), String> {
    let (base_source, new_source) = (default_source(base), default_source(new));
    compare_sources(base, &base_source, new, &new_source)
}

/// Both traces over the given sources.
pub fn compare_sources(
    base: &Trace,
    base_source: &Source,
    new: &Trace,
    new_source: &Source,
) -> Result<(Comparison, DiffTree), String> {
    let unit = source_unit(base, base_source);
    check_units(&unit, &source_unit(new, new_source))?;
    let base_tree = build_call_tree(base, base_source, None);
    let new_tree = build_call_tree(new, new_source, None);
    let functions = diff_functions(
        &bottom_up(&base_tree),
        &base.strings,
        &bottom_up(&new_tree),
        &new.strings,
    );
    let tree = diff_trees(&base_tree, &base.strings, &new_tree, &new.strings);
    Ok((Comparison { unit, functions }, tree))
}

impl Comparison {
    /// The table as text, like `uftrace report --diff --diff-policy full`
    /// but with deltas as new − base: time columns then calls.
    pub fn to_text(&self) -> String {
        let time = |v: i64| weight_text(v, &self.unit);
        let signed = |v: i64| {
            let t = time(v.abs());
            if v < 0 {
                format!("-{t}")
            } else {
                format!("+{t}")
            }
        };
        let mut out = format!(
            "{:>12} {:>12} {:>13}  {:>12} {:>12} {:>13}  {:>7} {:>7} {:>7}  Function\n",
            "Base total",
            "New total",
            "Δ total",
            "Base self",
            "New self",
            "Δ self",
            "Base#",
            "New#",
            "Δ#"
        );
        out.push_str(&format!(
            "{}\n",
            "=".repeat(out.chars().count().saturating_sub(1))
        ));
        for f in &self.functions {
            out.push_str(&format!(
                "{:>12} {:>12} {:>13}  {:>12} {:>12} {:>13}  {:>7} {:>7} {:>+7}  {}\n",
                time(f.base.total),
                time(f.new.total),
                signed(f.delta_total),
                time(f.base.self_time),
                time(f.new.self_time),
                signed(f.delta_self),
                f.base.calls,
                f.new.calls,
                f.new.calls as i64 - f.base.calls as i64,
                f.name
            ));
        }
        out
    }
}

/// A weight as the text table prints it: times like `uftrace report`, other
/// units as a number and the unit.
fn weight_text(value: i64, unit: &str) -> String {
    match unit {
        "ns" | "us" | "events" => super::report::format_time(value, unit),
        _ => format!("{value} {unit}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::diff::tests::run;

    #[test]
    fn functions_are_ranked_by_change_in_self() {
        let (a, b) = (run(50, false), run(80, true));
        let (c, tree) = compare(&a, &b).unwrap();
        let rows: Vec<(&str, i64, u64, u64)> = c
            .functions
            .iter()
            .map(|f| (f.name.as_str(), f.delta_self, f.base.calls, f.new.calls))
            .collect();
        // main lost the 5 units new_fn took (a tie in self broken by the
        // larger change in total); work grew by 30.
        assert_eq!(
            rows,
            vec![("work", 30, 1, 1), ("main", -5, 1, 1), ("new_fn", 5, 0, 1)]
        );
        assert_eq!(c.functions[1].delta_total, 30);
        assert_eq!(c.unit, "ns");
        assert_eq!(tree.nodes[0].new.total, 180);
        assert_eq!(c.functions[2].self_ratio(), None);
        assert_eq!(c.functions[0].self_ratio(), Some(30.0 / 50.0));
        let text = c.to_text();
        assert!(text.lines().nth(2).unwrap().ends_with("  work"), "{text}");
    }

    #[test]
    fn different_units_are_refused() {
        let a = run(50, false);
        let mut b = run(80, true);
        b.time_unit = Some(crate::model::TimeUnit::Us);
        let e = compare(&a, &b).unwrap_err();
        assert!(e.contains("ns") && e.contains("us"), "{e}");
    }
}
