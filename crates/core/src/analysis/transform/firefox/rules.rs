//! The transforms that are one [`rewrite`] pass: each span's fate from its
//! name and what its ancestors were (see the module docs of `firefox` for
//! what each transform means for spans).

use super::engine::{rewrite, Fate};
use super::resources::Resources;
use crate::analysis::meter::Meter;
use crate::analysis::transform::edit::SpanEdit;
use crate::model::{Spans, StrId};

/// Merge function: every call of `f` goes, its children move up.
pub(super) async fn merge_function(meter: &Meter, spans: &Spans, f: StrId) -> SpanEdit {
    rewrite(meter, spans, |name, _: Option<()>| {
        (if name == f { Fate::Merge } else { Fate::Keep }, ())
    })
    .await
}

/// Drop function: every call of `f` goes with its subtree and its time.
pub(super) async fn drop_function(meter: &Meter, spans: &Spans, f: StrId) -> SpanEdit {
    rewrite(meter, spans, |name, _: Option<()>| {
        (if name == f { Fate::Drop } else { Fate::Keep }, ())
    })
    .await
}

/// Collapse function subtree: the calls under a call of `f` go, their time
/// becomes its self time.
pub(super) async fn collapse_function_subtree(meter: &Meter, spans: &Spans, f: StrId) -> SpanEdit {
    rewrite(meter, spans, |name, parent: Option<bool>| {
        if parent == Some(true) {
            (Fate::Prune, true)
        } else {
            (Fate::Keep, name == f)
        }
    })
    .await
}

/// Collapse direct recursion: a call of `f` made directly by `f` merges
/// into the calling one.
pub(super) async fn collapse_direct_recursion(meter: &Meter, spans: &Spans, f: StrId) -> SpanEdit {
    rewrite(meter, spans, |name, parent: Option<bool>| {
        let is_f = name == f;
        match (is_f, parent) {
            (true, Some(true)) => (Fate::Merge, true),
            _ => (Fate::Keep, is_f),
        }
    })
    .await
}

/// Collapse resource: every call inside resource `target` is shown as
/// `shown` (the resource's name); one made directly by another call of the
/// resource merges into it.
pub(super) async fn collapse_resource(
    meter: &Meter,
    spans: &Spans,
    resources: &Resources,
    target: StrId,
    shown: StrId,
) -> SpanEdit {
    rewrite(meter, spans, |name, parent: Option<bool>| {
        let inside = resources.of(name) == Some(target);
        match (inside, parent) {
            (true, Some(true)) => (Fate::Merge, true),
            (true, _) => (Fate::KeepAs(shown), true),
            (false, _) => (Fate::Keep, false),
        }
    })
    .await
}

/// Focus on function: the outermost calls of `f` become roots with their
/// subtrees; everything outside them goes.
pub(super) async fn focus_function(meter: &Meter, spans: &Spans, f: StrId) -> SpanEdit {
    rewrite(meter, spans, |name, parent: Option<bool>| {
        if parent == Some(true) || name == f {
            (Fate::Keep, true)
        } else {
            (Fate::Merge, false)
        }
    })
    .await
}

/// Where a span stands against a call path.
#[derive(Clone, Copy, PartialEq, Eq)]
enum OnPath {
    /// Its ancestors-or-self are the path's first names, this many.
    Partial(usize),
    /// At or below the path's end.
    Inside,
    /// Off the path.
    Off,
}

/// Focus on subtree: the calls at `path` (names from a root down) become
/// roots with their subtrees; everything else goes.
pub(super) async fn focus_subtree(meter: &Meter, spans: &Spans, path: &[StrId]) -> SpanEdit {
    rewrite(meter, spans, |name, parent| {
        match parent.unwrap_or(OnPath::Partial(0)) {
            OnPath::Inside => (Fate::Keep, OnPath::Inside),
            OnPath::Partial(k) if path.get(k) == Some(&name) => {
                if k + 1 == path.len() {
                    (Fate::Keep, OnPath::Inside)
                } else {
                    (Fate::Merge, OnPath::Partial(k + 1))
                }
            }
            _ => (Fate::Drop, OnPath::Off),
        }
    })
    .await
}

/// Merge call node: the calls at `path` merge into their callers; calls of
/// the same function elsewhere stay.
pub(super) async fn merge_call_node(meter: &Meter, spans: &Spans, path: &[StrId]) -> SpanEdit {
    rewrite(meter, spans, |name, parent| {
        match parent.unwrap_or(OnPath::Partial(0)) {
            OnPath::Partial(k) if path.get(k) == Some(&name) => {
                if k + 1 == path.len() {
                    (Fate::Merge, OnPath::Off)
                } else {
                    (Fate::Keep, OnPath::Partial(k + 1))
                }
            }
            _ => (Fate::Keep, OnPath::Off),
        }
    })
    .await
}

/// True when some call's path from a root is exactly `path`.
pub(super) fn path_in_spans(spans: &Spans, path: &[StrId]) -> bool {
    // Per open depth: how many of the path's names the call and its
    // ancestors match (`usize::MAX`: off the path).
    let mut matched: Vec<usize> = Vec::new();
    for (&depth, &name) in spans.depth.iter().zip(&spans.name) {
        let depth = usize::from(depth);
        let above = match depth.checked_sub(1) {
            None => 0,
            Some(d) => matched.get(d).copied().unwrap_or(usize::MAX),
        };
        matched.truncate(depth);
        let k = match path.get(above) {
            Some(&p) if p == name => above + 1,
            _ => usize::MAX,
        };
        if k == path.len() {
            return true;
        }
        matched.push(k);
    }
    false
}
