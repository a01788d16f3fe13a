//! The Memory view's flame-graph sources: the blocks live at the peak, at
//! the end or at a clicked moment, or allocated in the ruler's range, in
//! `rtrace-calltree`'s weightings (bytes, count, topmost) — what
//! `SourceKey::Memory` names and `view_model::trees` builds through
//! [`tree`].

use flamedrop_core::analysis::calltree::CallTree;
use flamedrop_core::analysis::memory::{self, MemoryFilter, MemoryQuery, Moment, Weighting};
use flamedrop_core::model::Trace;

/// How many backtraces the topmost weighting keeps (`rtrace-calltree
/// --depth`).
pub const TOPMOST: u32 = 10;

/// Which blocks a memory source holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LiveWhen {
    /// Live at the peak (of the range).
    Peak,
    /// Live at the end (of the range).
    End,
    /// Live at this time.
    At(i64),
    /// Allocated inside the range (the whole trace without one).
    InRange,
}

impl LiveWhen {
    /// The text form in a source key.
    pub fn name(self) -> String {
        match self {
            LiveWhen::Peak => "peak".to_owned(),
            LiveWhen::End => "end".to_owned(),
            LiveWhen::InRange => "range".to_owned(),
            LiveWhen::At(t) => format!("at{t}"),
        }
    }

    /// Reads [`LiveWhen::name`]'s form.
    pub fn parse(s: &str) -> Option<LiveWhen> {
        Some(match s {
            "peak" => LiveWhen::Peak,
            "end" => LiveWhen::End,
            "range" => LiveWhen::InRange,
            _ => LiveWhen::At(s.strip_prefix("at")?.parse().ok()?),
        })
    }

    /// How a picker names it.
    pub fn label(self) -> String {
        match self {
            LiveWhen::Peak => "live at peak".to_owned(),
            LiveWhen::End => "live at end".to_owned(),
            LiveWhen::InRange => "allocated in range".to_owned(),
            LiveWhen::At(t) => format!("live at {t}"),
        }
    }
}

/// The weighting's text form.
pub fn weighting_name(w: Weighting) -> &'static str {
    match w {
        Weighting::Bytes => "bytes",
        Weighting::Count => "count",
        Weighting::Topmost { .. } => "topmost",
    }
}

/// Reads [`weighting_name`]'s form.
pub fn parse_weighting(s: &str) -> Option<Weighting> {
    Some(match s {
        "bytes" => Weighting::Bytes,
        "count" => Weighting::Count,
        "topmost" => Weighting::Topmost { count: TOPMOST },
        _ => return None,
    })
}

/// The call tree of `resource`'s blocks that pass `filter`, `when`,
/// weighed by `weighting`, within the ruler's `range`.
pub fn tree(
    trace: &Trace,
    (resource, filter): (u32, MemoryFilter),
    when: LiveWhen,
    weighting: Weighting,
    range: Option<(i64, i64)>,
) -> CallTree {
    let query = MemoryQuery {
        resource,
        filter,
        range,
    };
    let Ok(selected) = memory::select(trace, &query) else {
        return CallTree::new();
    };
    let blocks = match when {
        LiveWhen::Peak => memory::live_at(trace, &query, &selected, Moment::Peak),
        LiveWhen::End => memory::live_at(trace, &query, &selected, Moment::End),
        LiveWhen::At(t) => memory::live_at(trace, &query, &selected, Moment::At(t)),
        LiveWhen::InRange => memory::allocated_in_range(trace, &query, &selected),
    };
    memory::call_tree(trace, resource, &blocks, weighting)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for w in [
            LiveWhen::Peak,
            LiveWhen::End,
            LiveWhen::InRange,
            LiveWhen::At(-5),
        ] {
            assert_eq!(LiveWhen::parse(&w.name()), Some(w));
        }
        assert_eq!(LiveWhen::parse("later"), None);
        for w in [
            Weighting::Bytes,
            Weighting::Count,
            Weighting::Topmost { count: TOPMOST },
        ] {
            assert_eq!(parse_weighting(weighting_name(w)), Some(w));
        }
    }

    #[test]
    fn a_missing_resource_has_an_empty_tree() {
        let t = tree(
            &Trace::default(),
            (3, MemoryFilter::default()),
            LiveWhen::End,
            Weighting::Bytes,
            None,
        );
        assert!(t.root().children.is_empty());
    }
}
