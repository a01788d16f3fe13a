//! The aggregated views against uftrace's own output: on every shared real
//! fixture the bottom-up roots equal `uftrace report` (calls, total, self),
//! the top-down tree equals `uftrace graph`, and a function's sandwich callers
//! are its parents in `uftrace graph`.

mod common;

use common::{cases, decode_case, reference};
use flamedrop_core::analysis::calltree::{build, CallTree, Source};
use flamedrop_core::analysis::report::format_time;
use flamedrop_core::analysis::{bottom_up, sandwich};
use flamedrop_core::Trace;
use std::collections::{BTreeMap, BTreeSet};

/// A node of `uftrace graph`: name, calls, total as printed, children.
#[derive(Debug, Default, PartialEq, Eq, PartialOrd, Ord, Clone)]
struct GraphNode {
    name: String,
    calls: u64,
    total: String,
    children: Vec<GraphNode>,
}

/// Parses `uftrace graph`. A line drawn with `+-(` hangs below the last node
/// three columns to its left; a line without it is the single child of the
/// line above (uftrace draws single-child chains straight down).
fn parse_graph(text: &str) -> GraphNode {
    // (column of '(', name, calls, total, parent index)
    let mut nodes: Vec<(usize, GraphNode, Option<usize>)> = Vec::new();
    let mut last_at_column: BTreeMap<usize, usize> = BTreeMap::new();
    for line in text.lines() {
        let Some((time, rest)) = line.split_once(':') else {
            continue;
        };
        let Some(open) = rest.find('(') else { continue };
        if time.trim().is_empty() || time.trim_start().starts_with('#') {
            continue;
        }
        let Some(close) = rest[open..].find(") ") else {
            continue;
        };
        let calls: u64 = rest[open + 1..open + close].parse().expect("calls");
        let name = rest[open + close + 2..].trim().to_owned();
        let parent = if nodes.is_empty() {
            None
        } else if rest[..open].ends_with("+-") {
            last_at_column.get(&(open - 3)).copied()
        } else {
            Some(nodes.len() - 1)
        };
        let node = GraphNode {
            name,
            calls,
            total: time.trim().to_owned(),
            children: vec![],
        };
        last_at_column.insert(open, nodes.len());
        nodes.push((open, node, parent));
    }
    // Attach children bottom-up (children come after parents).
    for i in (1..nodes.len()).rev() {
        let child = nodes[i].1.clone();
        let parent = nodes[i].2.expect("a parent");
        nodes[parent].1.children.insert(0, child);
    }
    nodes.swap_remove(0).1
}

fn sorted(mut nodes: Vec<GraphNode>) -> Vec<GraphNode> {
    for n in &mut nodes {
        n.children = sorted(std::mem::take(&mut n.children));
    }
    nodes.sort();
    nodes
}

fn our_graph(trace: &Trace, tree: &CallTree, at: u32) -> Vec<GraphNode> {
    tree.nodes[at as usize]
        .children
        .iter()
        .map(|&c| {
            let n = &tree.nodes[c as usize];
            GraphNode {
                name: trace.str(n.name).to_owned(),
                calls: n.calls,
                total: format_time(n.total, "ns"),
                children: our_graph(trace, tree, c),
            }
        })
        .collect()
}

fn merged_tree(trace: &Trace) -> CallTree {
    let threads = (0..trace.threads.len() as u32).collect();
    build(trace, &Source::Spans { threads }, None)
}

#[test]
fn bottom_up_roots_equal_uftrace_report() {
    for case in cases("uftrace") {
        let trace = decode_case("uftrace", &case);
        let inverted = bottom_up(&merged_tree(&trace));
        let mut ours: Vec<String> = inverted
            .root()
            .children
            .iter()
            .map(|&c| {
                let n = &inverted.nodes[c as usize];
                format!(
                    "{:>10}  {:>10}  {:>10}  {}",
                    format_time(n.total, "ns"),
                    format_time(n.self_time, "ns"),
                    n.calls,
                    trace.str(n.name)
                )
            })
            .collect();
        let text = reference("uftrace", &case, "report.txt");
        let mut expected: Vec<String> = text
            .lines()
            .skip(2)
            .filter(|l| !l.trim().is_empty())
            .map(|l| l.trim_start_matches(' ').to_owned())
            .collect();
        for row in &mut ours {
            *row = row.trim_start().to_owned();
        }
        ours.sort();
        expected.sort();
        assert_eq!(
            ours, expected,
            "{case}: bottom-up roots differ from report.txt"
        );
    }
}

#[test]
fn top_down_tree_equals_uftrace_graph() {
    for case in cases("uftrace") {
        let trace = decode_case("uftrace", &case);
        let graph = parse_graph(&reference("uftrace", &case, "graph.txt"));
        assert!(!graph.children.is_empty(), "{case}: graph.txt parsed empty");
        let tree = merged_tree(&trace);
        assert_eq!(
            sorted(our_graph(&trace, &tree, 0)),
            sorted(graph.children),
            "{case}: top-down tree differs from graph.txt"
        );
    }
}

fn parents(node: &GraphNode, parent: Option<&str>, out: &mut BTreeMap<String, BTreeSet<String>>) {
    let entry = out.entry(node.name.clone()).or_default();
    if let Some(p) = parent {
        entry.insert(p.to_owned());
    }
    for c in &node.children {
        parents(c, Some(&node.name), out);
    }
}

#[test]
fn sandwich_callers_are_the_parents_in_uftrace_graph() {
    let mut checked = 0;
    for case in cases("uftrace") {
        let trace = decode_case("uftrace", &case);
        let graph = parse_graph(&reference("uftrace", &case, "graph.txt"));
        let mut expected = BTreeMap::new();
        for top in &graph.children {
            parents(top, None, &mut expected);
        }
        let tree = merged_tree(&trace);
        for (name, callers) in expected {
            let id = trace
                .strings
                .all()
                .iter()
                .position(|s| *s == name)
                .expect("function in trace") as u32;
            let s = sandwich(&tree, id);
            let function = s.callers.root().children[0];
            let ours: BTreeSet<String> = s.callers.nodes[function as usize]
                .children
                .iter()
                .map(|&c| trace.str(s.callers.nodes[c as usize].name).to_owned())
                .collect();
            assert_eq!(ours, callers, "{case}: callers of {name}");
            checked += 1;
        }
    }
    assert!(checked > 40, "only {checked} functions checked");
}
