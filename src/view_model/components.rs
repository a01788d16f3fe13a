//! The Components view's pure part: which options the analysis runs with
//! (the ruler's range, the thread picker, the "other below" share), the
//! library table's sorting, and the layouts of its two pictures — the
//! caller → callee flows (a Sankey-like diagram: callers left, callees
//! right, bands as wide as their time) and the drill-down icicle (process →
//! thread → library → function, zoomed on one node). No web types: tested
//! natively; `render::components` paints the layouts.

use flamedrop_core::analysis::components::{
    CallEdge, ComponentsOptions, ComponentsReport, DrillKind, DrillNode, LibraryTime,
};

/// What the view's controls chose.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Choice {
    /// Index into `Trace::threads`; `None`: all threads.
    pub thread: Option<u32>,
    /// Rows under this share (percent) are grouped as "other".
    pub other_below: f64,
}

impl Choice {
    /// The analysis' options for this choice over the ruler's `range`.
    pub fn options(&self, range: Option<(i64, i64)>) -> ComponentsOptions {
        ComponentsOptions {
            range,
            threads: self.thread.map(|t| vec![t]),
            other_below: self.other_below.max(0.0),
        }
    }
}

/// The table's columns, for sorting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Column {
    Library,
    SelfTime,
    Wait,
    #[default]
    Inclusive,
    Calls,
    Local,
    Global,
}

impl Column {
    /// Every column, in table order, with its header.
    pub const ALL: [(Column, &'static str); 7] = [
        (Column::Library, "Library"),
        (Column::SelfTime, "Self"),
        (Column::Wait, "Wait"),
        (Column::Inclusive, "Inclusive"),
        (Column::Calls, "Calls"),
        (Column::Local, "Local %"),
        (Column::Global, "Global %"),
    ];

    /// The name used in `data-column`.
    pub fn name(self) -> &'static str {
        match self {
            Column::Library => "library",
            Column::SelfTime => "self",
            Column::Wait => "wait",
            Column::Inclusive => "inclusive",
            Column::Calls => "calls",
            Column::Local => "local",
            Column::Global => "global",
        }
    }
}

/// The table's rows sorted by `column` (descending for numbers, A→Z for
/// names; `reverse` flips it); "other" always last.
pub fn sorted(rows: &[LibraryTime], column: Column, reverse: bool) -> Vec<LibraryTime> {
    let mut rows = rows.to_vec();
    rows.sort_by(|a, b| {
        let order = match column {
            Column::Library => a.library.cmp(&b.library),
            Column::SelfTime => b.self_time.cmp(&a.self_time),
            Column::Wait => b.wait.cmp(&a.wait),
            Column::Inclusive => b.inclusive.cmp(&a.inclusive),
            Column::Calls => b.calls.cmp(&a.calls),
            Column::Local => b.local_percent.total_cmp(&a.local_percent),
            Column::Global => b.global_percent.total_cmp(&a.global_percent),
        };
        let order = if reverse { order.reverse() } else { order };
        let other = |r: &LibraryTime| !r.grouped.is_empty();
        other(a).cmp(&other(b)).then(order)
    });
    rows
}

/// The rows the table shows: the process's, or the chosen thread's.
pub fn rows_of(report: &ComponentsReport, thread: Option<u32>) -> &[LibraryTime] {
    match thread {
        None => &report.libraries,
        Some(t) => report
            .threads
            .iter()
            .find(|th| th.index == t)
            .map_or(&[][..], |th| &th.libraries[..]),
    }
}

/// The time spent waiting over the report's threads.
pub fn total_wait(report: &ComponentsReport) -> i64 {
    report.libraries.iter().map(|l| l.wait).sum()
}

/// One bar of the flow diagram.
#[derive(Clone, Debug, PartialEq)]
pub struct FlowNode {
    pub library: String,
    /// Top and height in px.
    pub top: f64,
    pub height: f64,
}

/// One band from a caller to a callee.
#[derive(Clone, Debug, PartialEq)]
pub struct FlowBand {
    pub caller: String,
    pub callee: String,
    /// Where the band leaves the caller's bar and enters the callee's.
    pub from_top: f64,
    pub to_top: f64,
    pub width: f64,
    pub time: i64,
    pub calls: u64,
}

/// The flow diagram laid out in `height` px.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Flows {
    pub callers: Vec<FlowNode>,
    pub callees: Vec<FlowNode>,
    pub bands: Vec<FlowBand>,
}

/// Px between two bars of a column.
pub const FLOW_GAP: f64 = 6.0;

/// Lays out `matrix`: each caller's bar as tall as the time of its calls
/// out, each callee's as the time of its calls in, largest first; a band per
/// edge, stacked inside both bars. Calls of a library into itself are left
/// out (they are not a flow between components).
pub fn flows(matrix: &[CallEdge], height: f64) -> Flows {
    let edges: Vec<&CallEdge> = matrix
        .iter()
        .filter(|e| e.caller != e.callee && e.time > 0)
        .collect();
    let total: i64 = edges.iter().map(|e| e.time).sum();
    if total <= 0 {
        return Flows::default();
    }
    let column = |key: fn(&CallEdge) -> &str| {
        let mut sums: Vec<(String, i64)> = Vec::new();
        for e in &edges {
            match sums.iter_mut().find(|(n, _)| n == key(e)) {
                Some((_, t)) => *t += e.time,
                None => sums.push((key(e).to_owned(), e.time)),
            }
        }
        sums.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        sums
    };
    let (callers, callees) = (column(|e| &e.caller), column(|e| &e.callee));
    let gaps = FLOW_GAP * (callers.len().max(callees.len()).saturating_sub(1)) as f64;
    let scale = ((height - gaps).max(1.0)) / total as f64;
    let place = |sums: &[(String, i64)]| {
        let mut top = 0.0;
        sums.iter()
            .map(|(library, t)| {
                let node = FlowNode {
                    library: library.clone(),
                    top,
                    height: *t as f64 * scale,
                };
                top += node.height + FLOW_GAP;
                node
            })
            .collect::<Vec<_>>()
    };
    let (callers, callees) = (place(&callers), place(&callees));
    let mut out_used = vec![0.0; callers.len()];
    let mut in_used = vec![0.0; callees.len()];
    let mut sorted_edges = edges;
    sorted_edges.sort_by_key(|e| std::cmp::Reverse(e.time));
    let bands = sorted_edges
        .iter()
        .filter_map(|e| {
            let from = callers.iter().position(|n| n.library == e.caller)?;
            let to = callees.iter().position(|n| n.library == e.callee)?;
            let width = e.time as f64 * scale;
            let band = FlowBand {
                caller: e.caller.clone(),
                callee: e.callee.clone(),
                from_top: callers.get(from)?.top + out_used.get(from)?,
                to_top: callees.get(to)?.top + in_used.get(to)?,
                width,
                time: e.time,
                calls: e.calls,
            };
            *out_used.get_mut(from)? += width;
            *in_used.get_mut(to)? += width;
            Some(band)
        })
        .collect();
    Flows {
        callers,
        callees,
        bands,
    }
}

/// One rectangle of the icicle: fractions of the width, a row per level.
#[derive(Clone, Debug, PartialEq)]
pub struct IcicleRect {
    pub x0: f64,
    pub x1: f64,
    pub depth: u16,
    pub name: String,
    pub kind: DrillKind,
    pub time: i64,
    pub wait: i64,
    pub calls: u64,
    /// Child indices from the root: what a click zooms to.
    pub path: Vec<usize>,
}

/// The node at `path` (child indices from `root`), if there is one.
pub fn node_at<'a>(root: &'a DrillNode, path: &[usize]) -> Option<&'a DrillNode> {
    path.iter().try_fold(root, |node, &i| node.children.get(i))
}

/// The icicle of the node at `zoom`: it at full width on row 0, its
/// children below, each as wide as its share of its parent.
pub fn icicle(root: &DrillNode, zoom: &[usize]) -> Vec<IcicleRect> {
    let Some(top) = node_at(root, zoom) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut stack = vec![(top, 0.0, 1.0, 0u16, zoom.to_vec())];
    while let Some((node, x0, x1, depth, path)) = stack.pop() {
        out.push(IcicleRect {
            x0,
            x1,
            depth,
            name: node.name.clone(),
            kind: node.kind,
            time: node.time,
            wait: node.wait,
            calls: node.calls,
            path: path.clone(),
        });
        if node.time <= 0 {
            continue;
        }
        let mut x = x0;
        for (i, child) in node.children.iter().enumerate() {
            let w = (x1 - x0) * child.time.max(0) as f64 / node.time as f64;
            let mut child_path = path.clone();
            child_path.push(i);
            stack.push((child, x, x + w, depth + 1, child_path));
            x += w;
        }
    }
    out.sort_by(|a, b| a.depth.cmp(&b.depth).then(a.x0.total_cmp(&b.x0)));
    out
}

/// The rectangle at (`fx` as a fraction of the width, row `depth`).
pub fn icicle_hit(rects: &[IcicleRect], fx: f64, depth: u16) -> Option<&IcicleRect> {
    rects
        .iter()
        .find(|r| r.depth == depth && fx >= r.x0 && fx < r.x1)
}

/// The names along `path` from the root (the breadcrumb).
pub fn breadcrumb(root: &DrillNode, path: &[usize]) -> Vec<String> {
    let mut names = vec![root.name.clone()];
    let mut node = root;
    for &i in path {
        match node.children.get(i) {
            Some(child) => {
                names.push(child.name.clone());
                node = child;
            }
            None => break,
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(library: &str, self_time: i64, other: bool) -> LibraryTime {
        LibraryTime {
            library: library.to_owned(),
            self_time,
            inclusive: self_time * 2,
            grouped: if other { vec!["x".into()] } else { vec![] },
            ..LibraryTime::default()
        }
    }

    fn edge(caller: &str, callee: &str, time: i64, calls: u64) -> CallEdge {
        CallEdge {
            caller: caller.into(),
            callee: callee.into(),
            calls,
            time,
        }
    }

    fn node(kind: DrillKind, name: &str, time: i64, children: Vec<DrillNode>) -> DrillNode {
        DrillNode {
            kind,
            name: name.into(),
            time,
            wait: 0,
            calls: 1,
            children,
        }
    }

    #[test]
    fn sorting_keeps_other_last_and_reverses() {
        let rows = vec![
            row("b", 5, false),
            row("other", 50, true),
            row("a", 9, false),
        ];
        let names = |r: Vec<LibraryTime>| r.into_iter().map(|r| r.library).collect::<Vec<_>>();
        assert_eq!(
            names(sorted(&rows, Column::SelfTime, false)),
            ["a", "b", "other"]
        );
        assert_eq!(
            names(sorted(&rows, Column::SelfTime, true)),
            ["b", "a", "other"]
        );
        assert_eq!(
            names(sorted(&rows, Column::Library, false)),
            ["a", "b", "other"]
        );
    }

    #[test]
    fn choice_makes_the_options() {
        let c = Choice {
            thread: Some(2),
            other_below: -1.0,
        };
        let o = c.options(Some((10, 20)));
        assert_eq!(o.threads, Some(vec![2]));
        assert_eq!(o.range, Some((10, 20)));
        assert_eq!(o.other_below, 0.0);
        assert_eq!(Choice::default().options(None).threads, None);
    }

    #[test]
    fn flows_stack_bands_inside_bars_and_skip_self_calls() {
        let matrix = [
            edge("app", "libm", 60, 3),
            edge("app", "libc", 30, 2),
            edge("libm", "libc", 10, 1),
            edge("app", "app", 500, 9),
        ];
        let f = flows(&matrix, 100.0 + FLOW_GAP);
        // Callers: app 90, libm 10; callees: libm 60, libc 40.
        assert_eq!(f.callers.len(), 2);
        assert_eq!(f.callers[0].library, "app");
        assert!((f.callers[0].height - 90.0).abs() < 1e-9);
        assert_eq!(f.callees[0].library, "libm");
        assert!((f.callees[1].top - (60.0 + FLOW_GAP)).abs() < 1e-9);
        assert_eq!(f.bands.len(), 3);
        // app → libc leaves app below app → libm, enters libc at its top.
        let b = f
            .bands
            .iter()
            .find(|b| b.callee == "libc" && b.caller == "app");
        let b = b.expect("band");
        assert!((b.from_top - 60.0).abs() < 1e-9);
        assert!((b.to_top - f.callees[1].top).abs() < 1e-9);
        assert_eq!(b.calls, 2);
        assert_eq!(flows(&[edge("a", "a", 5, 1)], 100.0), Flows::default());
    }

    #[test]
    fn icicle_splits_by_time_and_zooms() {
        let f1 = node(DrillKind::Function, "f1", 30, vec![]);
        let f2 = node(DrillKind::Function, "f2", 10, vec![]);
        let lib = node(DrillKind::Library, "libm", 40, vec![f1, f2]);
        let prog = node(DrillKind::Library, "app", 60, vec![]);
        let thread = node(DrillKind::Thread, "1", 100, vec![prog, lib]);
        let root = node(DrillKind::Process, "process", 100, vec![thread]);
        let rects = icicle(&root, &[]);
        assert_eq!(rects.len(), 6);
        let libm = rects.iter().find(|r| r.name == "libm").expect("libm");
        assert_eq!(libm.depth, 2);
        assert!((libm.x0 - 0.6).abs() < 1e-9 && (libm.x1 - 1.0).abs() < 1e-9);
        assert_eq!(libm.path, vec![0, 1]);
        let zoomed = icicle(&root, &libm.path);
        assert_eq!(zoomed[0].name, "libm");
        assert!((zoomed[1].x1 - 0.75).abs() < 1e-9);
        assert_eq!(
            icicle_hit(&zoomed, 0.8, 1).map(|r| r.name.as_str()),
            Some("f2")
        );
        assert_eq!(breadcrumb(&root, &[0, 1]), ["process", "1", "libm"]);
        assert!(icicle(&root, &[5]).is_empty());
    }
}
