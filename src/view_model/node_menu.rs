//! The right-click (long-press) menu of one node, and what Firefox
//! Profiler's keys do to it: for a timeline span, a flame-graph / call-tree
//! / sandwich node or a diff node, the transforms in Firefox Profiler's order
//! with their keys, each giving the [`Step`] to push onto the narrowing
//! stack. An item that cannot apply to this node stays in the menu, disabled,
//! with the reason (as Firefox Profiler does).

use super::View;
use flamedrop_core::analysis::transform::{resource_of, Step};
use flamedrop_core::analysis::CallTree;
use flamedrop_core::model::{StrId, StringTable, Trace};

/// The node a person points at, as the menu needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MenuNode {
    /// The function's name (the trace's display name).
    pub name: String,
    /// The call path from the outermost call down to this node, or why the
    /// view has none (a bottom-up tree, the sandwich).
    pub path: Result<Vec<String>, String>,
    /// Whether the function calls itself anywhere.
    pub recursion: Recursion,
    /// The module / library / class the function belongs to, if the trace
    /// says.
    pub resource: Option<String>,
}

/// Whether a function ever calls itself.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Recursion {
    /// A call of the function made directly by the function.
    pub direct: bool,
    /// A call of the function anywhere under another call of it.
    pub any: bool,
}

/// One line of the menu.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MenuItem {
    /// Firefox Profiler's key for it (`m`, `M`, `f`, …).
    pub key: &'static str,
    pub label: String,
    /// The step to push, or why the item is disabled.
    pub action: Result<Step, String>,
}

/// Why path items are off in a bottom-up (inverted) tree.
pub const INVERTED: &str = "not in a bottom-up tree: its paths run from callee to caller";
/// Why path items are off in the sandwich.
pub const SANDWICH: &str = "the sandwich merges every call path: use the flame graph or call tree";

/// The menu's items for `node`, in Firefox Profiler's order.
pub fn items(node: &MenuNode) -> Vec<MenuItem> {
    let name = &node.name;
    let item = |key, label: &str, action| MenuItem {
        key,
        label: label.to_owned(),
        action,
    };
    let on_path = |make: fn(Vec<String>) -> Step| node.path.clone().map(make);
    let recursing = |yes: bool, step: Step, how: &str| {
        if yes {
            Ok(step)
        } else {
            Err(format!("{name} never calls itself{how}"))
        }
    };
    let resource = match &node.resource {
        Some(r) => item(
            "C",
            &format!("Collapse {r}"),
            Ok(Step::CollapseResource(r.clone())),
        ),
        None => item(
            "C",
            "Collapse module / library",
            Err(format!(
                "the trace names no module, library or class for {name}"
            )),
        ),
    };
    vec![
        item("m", "Merge function", Ok(Step::MergeFunction(name.clone()))),
        item("M", "Merge node only", on_path(Step::MergeCallNode)),
        item("f", "Focus on subtree only", on_path(Step::FocusSubtree)),
        item(
            "F",
            "Focus on function",
            Ok(Step::FocusFunction(name.clone())),
        ),
        item(
            "S",
            "Focus on function (self)",
            Ok(Step::FocusSelf(name.clone())),
        ),
        item(
            "c",
            "Collapse function",
            Ok(Step::CollapseFunctionSubtree(name.clone())),
        ),
        resource,
        item(
            "r",
            "Collapse direct recursion only",
            recursing(
                node.recursion.direct,
                Step::CollapseDirectRecursion(name.clone()),
                " directly",
            ),
        ),
        item(
            "R",
            "Collapse recursion",
            recursing(
                node.recursion.any,
                Step::CollapseRecursion(name.clone()),
                "",
            ),
        ),
        item(
            "d",
            "Drop samples with this function",
            Ok(Step::DropFunction(name.clone())),
        ),
    ]
}

/// The step Firefox Profiler's `key` pushes for `node`, if it applies.
pub fn step_for_key(node: &MenuNode, key: &str) -> Option<Step> {
    items(node)
        .into_iter()
        .find(|i| i.key == key)
        .and_then(|i| i.action.ok())
}

/// True for the ten keys of the menu.
pub fn is_menu_key(key: &str) -> bool {
    matches!(
        key,
        "m" | "M" | "f" | "F" | "S" | "c" | "C" | "r" | "R" | "d"
    )
}

/// True when `key` pushes a transform in `view`. The timeline keeps W A S D
/// (Perfetto's zoom and pan, either case), so there `S` and `d` move the
/// view and the two transforms are in the span's menu only.
pub fn is_transform_key(view: View, key: &str) -> bool {
    is_menu_key(key) && !(view == View::Timeline && matches!(key, "S" | "d"))
}

/// How a tree's paths read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TreeKind {
    /// Top-down: a node's path is a call path (flame graph, call tree, diff).
    TopDown,
    /// Bottom-up: a node's path runs from a function out to its callers.
    Inverted,
    /// The sandwich's callers or callees, merged over every call site.
    Sandwich,
}

impl MenuNode {
    /// Span `span` of thread `thread`: its name, and its call path found by
    /// walking back to the nearest earlier span one level up, and so on
    /// (spans are in pre-order).
    pub fn of_span(trace: &Trace, thread: usize, span: u32) -> Option<MenuNode> {
        let spans = &trace.threads.get(thread)?.spans;
        let at = span as usize;
        let id = *spans.name.get(at)?;
        let mut depth = *spans.depth.get(at)?;
        let mut path = vec![trace.str(id).to_owned()];
        for i in (0..at).rev() {
            if depth == 0 {
                break;
            }
            let (Some(&d), Some(&n)) = (spans.depth.get(i), spans.name.get(i)) else {
                break;
            };
            if d < depth {
                path.push(trace.str(n).to_owned());
                depth = d;
            }
        }
        path.reverse();
        Some(MenuNode {
            name: trace.str(id).to_owned(),
            path: Ok(path),
            recursion: Recursion::in_spans(trace, id),
            resource: resource_of(trace, trace.str(id)),
        })
    }

    /// Node `node` of `tree`, whose names are `strings`; `kind` says whether
    /// its path is a call path. `recursion` is the function's, from a
    /// top-down tree ([`Recursion::in_tree`]) or the spans. The root (0) has
    /// no menu.
    pub fn of_tree(
        trace: &Trace,
        tree: &CallTree,
        strings: &StringTable,
        node: u32,
        kind: TreeKind,
        recursion: impl FnOnce(&str) -> Recursion,
    ) -> Option<MenuNode> {
        if node == 0 {
            return None;
        }
        let name = strings.get(tree.get(node)?.name).to_owned();
        let path = match kind {
            TreeKind::TopDown => Ok(tree
                .path_to(node)
                .iter()
                .filter_map(|&n| tree.get(n).map(|n| strings.get(n.name).to_owned()))
                .collect()),
            TreeKind::Inverted => Err(INVERTED.to_owned()),
            TreeKind::Sandwich => Err(SANDWICH.to_owned()),
        };
        Some(MenuNode::named(trace, name, path, recursion))
    }

    /// A function picked by name (the sandwich's list): no call path.
    pub fn of_function(
        trace: &Trace,
        name: &str,
        recursion: impl FnOnce(&str) -> Recursion,
    ) -> MenuNode {
        MenuNode::named(trace, name.to_owned(), Err(SANDWICH.to_owned()), recursion)
    }

    fn named(
        trace: &Trace,
        name: String,
        path: Result<Vec<String>, String>,
        recursion: impl FnOnce(&str) -> Recursion,
    ) -> MenuNode {
        MenuNode {
            recursion: recursion(&name),
            resource: resource_of(trace, &name),
            name,
            path,
        }
    }
}

impl Recursion {
    /// Whether function `name` calls itself in any thread's spans.
    pub fn in_spans(trace: &Trace, name: StrId) -> Recursion {
        let mut found = Recursion::default();
        for thread in &trace.threads {
            // The names of the calls open at each depth, and how many of
            // them are `name`.
            let mut open: Vec<StrId> = Vec::new();
            let mut inside = 0usize;
            for (&n, &depth) in thread.spans.name.iter().zip(&thread.spans.depth) {
                while open.len() > usize::from(depth) {
                    if open.pop() == Some(name) {
                        inside -= 1;
                    }
                }
                if n == name {
                    found.any |= inside > 0;
                    found.direct |= open.last() == Some(&name);
                    inside += 1;
                }
                open.push(n);
                if found.direct {
                    return found;
                }
            }
        }
        found
    }

    /// Whether function `name` calls itself in a top-down tree.
    pub fn in_tree(tree: &CallTree, name: StrId) -> Recursion {
        let mut found = Recursion::default();
        for node in tree.nodes.iter().skip(1) {
            if node.name != name {
                continue;
            }
            let parent = |n: u32| tree.get(n).filter(|_| n != 0);
            let mut up = parent(node.parent);
            found.direct |= up.is_some_and(|p| p.name == name);
            while let Some(p) = up {
                if p.name == name {
                    found.any = true;
                    break;
                }
                up = parent(p.parent);
            }
            if found.direct {
                return found;
            }
        }
        found
    }

    /// [`Recursion::in_tree`] by the function's name in `strings`.
    pub fn in_tree_named(tree: &CallTree, strings: &StringTable, name: &str) -> Recursion {
        match strings.all().iter().position(|s| s == name) {
            Some(id) => Recursion::in_tree(tree, id as StrId),
            None => Recursion::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flamedrop_core::analysis::Node;
    use flamedrop_core::model::Thread;

    /// One thread whose spans are (name, depth) in pre-order.
    fn trace(calls: &[(&str, u16)]) -> Trace {
        let mut trace = Trace::default();
        let mut thread = Thread::default();
        for (i, &(name, depth)) in calls.iter().enumerate() {
            let id = trace.strings.intern(name);
            thread.spans.name.push(id);
            thread.spans.depth.push(depth);
            thread.spans.start.push(i as i64);
            thread.spans.end.push(i as i64 + 1);
            thread.spans.flags.push(0);
        }
        trace.threads.push(thread);
        trace
    }

    fn keys(items: &[MenuItem]) -> Vec<&str> {
        items.iter().map(|i| i.key).collect()
    }

    #[test]
    fn a_span_has_its_call_path_and_every_item_in_firefox_profilers_order() {
        // main { a { b } c { b } }
        let t = trace(&[("main", 0), ("a", 1), ("b", 2), ("c", 1), ("b", 2)]);
        let node = MenuNode::of_span(&t, 0, 4).unwrap();
        assert_eq!(node.name, "b");
        assert_eq!(node.path, Ok(vec!["main".into(), "c".into(), "b".into()]));
        let items = items(&node);
        assert_eq!(
            keys(&items),
            ["m", "M", "f", "F", "S", "c", "C", "r", "R", "d"]
        );
        let path = vec!["main".to_owned(), "c".to_owned(), "b".to_owned()];
        assert_eq!(items[0].action, Ok(Step::MergeFunction("b".into())));
        assert_eq!(items[1].action, Ok(Step::MergeCallNode(path.clone())));
        assert_eq!(items[2].action, Ok(Step::FocusSubtree(path)));
        assert_eq!(items[3].action, Ok(Step::FocusFunction("b".into())));
        assert_eq!(items[4].action, Ok(Step::FocusSelf("b".into())));
        assert_eq!(
            items[5].action,
            Ok(Step::CollapseFunctionSubtree("b".into()))
        );
        assert_eq!(items[9].action, Ok(Step::DropFunction("b".into())));
        assert_eq!(items[9].label, "Drop samples with this function");
    }

    #[test]
    fn recursion_items_are_disabled_with_the_reason_when_the_function_never_recurses() {
        let t = trace(&[("main", 0), ("a", 1), ("b", 2)]);
        let node = MenuNode::of_span(&t, 0, 1).unwrap();
        assert_eq!(node.recursion, Recursion::default());
        let items = items(&node);
        assert_eq!(
            items[7].action,
            Err("a never calls itself directly".to_owned())
        );
        assert_eq!(items[8].action, Err("a never calls itself".to_owned()));
        assert_eq!(step_for_key(&node, "r"), None);
        assert_eq!(
            step_for_key(&node, "m"),
            Some(Step::MergeFunction("a".into()))
        );
    }

    #[test]
    fn direct_and_indirect_recursion_are_told_apart() {
        // f calls g calls f: indirect only; h calls h: direct.
        let t = trace(&[("f", 0), ("g", 1), ("f", 2), ("h", 0), ("h", 1)]);
        let f = t.strings.all().iter().position(|s| s == "f").unwrap() as StrId;
        let h = t.strings.all().iter().position(|s| s == "h").unwrap() as StrId;
        let g = t.strings.all().iter().position(|s| s == "g").unwrap() as StrId;
        assert_eq!(
            Recursion::in_spans(&t, f),
            Recursion {
                direct: false,
                any: true
            }
        );
        assert_eq!(
            Recursion::in_spans(&t, h),
            Recursion {
                direct: true,
                any: true
            }
        );
        assert_eq!(Recursion::in_spans(&t, g), Recursion::default());
        let node = MenuNode::of_span(&t, 0, 2).unwrap();
        assert_eq!(
            step_for_key(&node, "R"),
            Some(Step::CollapseRecursion("f".into()))
        );
        assert_eq!(step_for_key(&node, "r"), None);
    }

    /// A top-down tree of `paths` (names from the root down), equal
    /// prefixes merged.
    fn tree_of(t: &mut Trace, paths: &[&[&str]]) -> CallTree {
        let mut tree = CallTree::new();
        for path in paths {
            let mut at = 0u32;
            for name in *path {
                let id = t.strings.intern(name);
                let known = tree.nodes[at as usize]
                    .children
                    .iter()
                    .copied()
                    .find(|&c| tree.nodes[c as usize].name == id);
                at = known.unwrap_or_else(|| {
                    let index = tree.nodes.len() as u32;
                    tree.nodes.push(Node {
                        name: id,
                        parent: at,
                        ..Node::default()
                    });
                    tree.nodes[at as usize].children.push(index);
                    index
                });
            }
        }
        tree
    }

    #[test]
    fn tree_nodes_read_their_path_and_recursion_from_the_tree() {
        let mut t = Trace::default();
        let tree = tree_of(&mut t, &[&["main", "a", "a"], &["main", "b", "c", "b"]]);
        let node = (1..tree.nodes.len() as u32)
            .find(|&n| tree.path_to(n).len() == 3 && t.str(tree.get(n).unwrap().name) == "a")
            .unwrap();
        let strings = t.strings.clone();
        let menu = MenuNode::of_tree(&t, &tree, &strings, node, TreeKind::TopDown, |n| {
            Recursion::in_tree_named(&tree, &strings, n)
        })
        .unwrap();
        assert_eq!(menu.path, Ok(vec!["main".into(), "a".into(), "a".into()]));
        assert_eq!(
            menu.recursion,
            Recursion {
                direct: true,
                any: true
            }
        );
        assert_eq!(
            Recursion::in_tree_named(&tree, &strings, "b"),
            Recursion {
                direct: false,
                any: true
            }
        );
        assert_eq!(
            Recursion::in_tree_named(&tree, &strings, "c"),
            Recursion::default()
        );
        assert!(
            MenuNode::of_tree(&t, &tree, &strings, 0, TreeKind::TopDown, |_| {
                Recursion::default()
            })
            .is_none()
        );
    }

    #[test]
    fn path_items_are_disabled_in_a_bottom_up_tree_and_the_sandwich() {
        let mut t = Trace::default();
        let tree = tree_of(&mut t, &[&["b", "main"]]);
        let strings = t.strings.clone();
        let none = |_: &str| Recursion::default();
        let inverted = MenuNode::of_tree(&t, &tree, &strings, 2, TreeKind::Inverted, none).unwrap();
        let items = items(&inverted);
        assert_eq!(items[1].action, Err(INVERTED.to_owned()));
        assert_eq!(items[2].action, Err(INVERTED.to_owned()));
        assert_eq!(items[0].action, Ok(Step::MergeFunction("main".into())));
        let picked = MenuNode::of_function(&t, "b", none);
        assert_eq!(step_for_key(&picked, "M"), None);
        assert_eq!(step_for_key(&picked, "f"), None);
        assert_eq!(
            step_for_key(&picked, "F"),
            Some(Step::FocusFunction("b".into()))
        );
    }

    #[test]
    fn collapse_resource_is_labelled_with_the_resource_or_disabled() {
        let t = trace(&[("main", 0)]);
        let mut node = MenuNode::of_span(&t, 0, 0).unwrap();
        node.resource = None;
        let off = &items(&node)[6];
        assert_eq!(off.key, "C");
        assert!(off.action.as_ref().unwrap_err().contains("main"));
        node.resource = Some("libc.so.6".into());
        let on = &items(&node)[6];
        assert_eq!(on.label, "Collapse libc.so.6");
        assert_eq!(on.action, Ok(Step::CollapseResource("libc.so.6".into())));
    }

    #[test]
    fn transform_keys_clash_only_with_the_timelines_w_a_s_d() {
        use crate::timeline::keys::action_for;
        use crate::view_model::VIEWS;
        for key in ["m", "M", "f", "F", "S", "c", "C", "r", "R", "d"] {
            // No page-wide key (`?`, `/`, `n`, `N`, the views' digits).
            assert!(!matches!(key, "?" | "/" | "n" | "N"));
            assert!(VIEWS.iter().all(|v| v.key != key), "{key} opens a view");
            let timeline = action_for(key).is_some();
            assert_eq!(timeline, matches!(key, "S" | "d"), "{key} in the timeline");
            assert_eq!(is_transform_key(View::Timeline, key), !timeline);
            for view in [View::FlameGraph, View::Sandwich, View::CallTree, View::Diff] {
                assert!(is_transform_key(view, key));
            }
        }
    }

    #[test]
    fn the_ten_keys_are_the_menus() {
        for k in ["m", "M", "f", "F", "S", "c", "C", "r", "R", "d"] {
            assert!(is_menu_key(k));
        }
        assert!(!is_menu_key("n") && !is_menu_key("s") && !is_menu_key("D"));
    }
}
