//! The drill-down tree: process → thread → component → function, each
//! node's time the sum of its children's, for an icicle or sunburst.
//!
//! A function sits under the component its time was given to: its own for
//! work, its caller's for a wait (as Scaler's analyzer puts `pthread_join`
//! and the waits in the caller's columns). So a component's node holds its
//! work and its waiting, and a thread's node its whole time.

use super::attribute::Tally;
use super::naming::Components;
use super::shares::{percent, OTHER};
use crate::model::Trace;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What a node of the drill-down tree stands for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DrillKind {
    #[default]
    Process,
    Thread,
    Library,
    Function,
}

/// One node of the drill-down tree.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DrillNode {
    pub kind: DrillKind,
    /// Thread id, component or function name.
    pub name: String,
    /// Time under the node: work plus waiting.
    pub time: i64,
    /// The part of `time` spent waiting.
    pub wait: i64,
    /// Calls under the node.
    pub calls: u64,
    /// Largest first.
    pub children: Vec<DrillNode>,
}

impl DrillNode {
    fn parent(kind: DrillKind, name: String, mut children: Vec<DrillNode>) -> DrillNode {
        children.sort_by(|a, b| b.time.cmp(&a.time).then_with(|| a.name.cmp(&b.name)));
        DrillNode {
            kind,
            name,
            time: children.iter().map(|c| c.time).sum(),
            wait: children.iter().map(|c| c.wait).sum(),
            calls: children.iter().map(|c| c.calls).sum(),
            children,
        }
    }
}

/// The tree over every tallied thread; in each thread, the libraries and
/// functions under `other_below` percent of the thread's time are moved
/// under one "other" node (0: none are).
pub(super) fn tree(
    trace: &Trace,
    tallies: &[(u32, Tally)],
    names: &Components,
    other_below: f64,
) -> DrillNode {
    let threads = tallies
        .iter()
        .map(|(index, tally)| {
            let id = trace
                .threads
                .get(*index as usize)
                .map_or_else(|| index.to_string(), |t| t.id.clone());
            let mut libraries = libraries(trace, tally, names);
            for library in &mut libraries {
                let functions = std::mem::take(&mut library.children);
                library.children = group_small(functions, other_below, tally.time);
            }
            let libraries = group_small(libraries, other_below, tally.time);
            DrillNode::parent(DrillKind::Thread, id, libraries)
        })
        .collect();
    let name = trace
        .processes
        .first()
        .map(|p| p.name.clone())
        .unwrap_or_default();
    DrillNode::parent(DrillKind::Process, name, threads)
}

/// `nodes` with those under `below` percent of `whole` moved under one last
/// node named "other" (of their kind), which the page can open like any.
fn group_small(nodes: Vec<DrillNode>, below: f64, whole: i64) -> Vec<DrillNode> {
    if below <= 0.0 {
        return nodes;
    }
    let (small, mut kept): (Vec<_>, Vec<_>) = nodes
        .into_iter()
        .partition(|n| percent(n.time as f64, whole as f64) < below);
    if let Some(kind) = small.first().map(|n| n.kind) {
        kept.push(DrillNode::parent(kind, OTHER.into(), small));
    }
    kept
}

/// One thread's component nodes with their functions.
fn libraries(trace: &Trace, tally: &Tally, names: &Components) -> Vec<DrillNode> {
    let mut by_component: BTreeMap<u32, Vec<DrillNode>> = BTreeMap::new();
    for (key, &(time, calls)) in &tally.functions {
        let name = match key.wait {
            Some(_) => format!("{} (wait)", trace.str(key.function)),
            None => trace.str(key.function).to_owned(),
        };
        by_component
            .entry(key.component)
            .or_default()
            .push(DrillNode {
                kind: DrillKind::Function,
                name,
                time,
                wait: if key.wait.is_some() { time } else { 0 },
                calls,
                children: Vec::new(),
            });
    }
    by_component
        .into_iter()
        .map(|(component, functions)| {
            DrillNode::parent(
                DrillKind::Library,
                names.name(component).to_owned(),
                functions,
            )
        })
        .collect()
}
