//! The call-tree table (`table#calltree`, an ARIA treegrid): the same tree as
//! the flame graph, as rows with self, total and calls, so keyboard and
//! screen-reader users reach everything the canvas shows. Column headers
//! sort; arrow keys move, expand and collapse; Enter picks the function for
//! the sandwich. The heaviest path starts expanded. A trace with uftrace
//! read triggers adds a "Δ rss" / "Δ faults" column (the calls' deltas
//! summed per node). A right-click or long
//! press on a row opens its transforms menu; Firefox Profiler's keys (`m`,
//! `M`, `f`, …) apply a transform to the focused row.

use crate::ui::context_menu::{LongPress, OpenMenu};
use crate::view_model::node_menu::{is_menu_key, step_for_key, MenuNode};
use crate::view_model::table::{key_move, visible_rows, Move, Row, SortBy, SortKeys};
use crate::view_model::Loaded;
use flamedrop_core::analysis::read_events::TreeDeltas;
use flamedrop_core::analysis::transform::Step;
use flamedrop_core::analysis::CallTree;
use flamedrop_core::model::StrId;
use std::collections::HashSet;
use std::rc::Rc;
use web_sys::{HtmlElement, PointerEvent};
use yew::prelude::*;

/// Rows rendered at most (deeper expansion shows a note).
const MAX_ROWS: usize = 3000;
/// Levels of the heaviest path opened at first.
const OPEN_LEVELS: usize = 4;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub loaded: Rc<Loaded>,
    pub tree: Rc<CallTree>,
    pub inverted: bool,
    pub marks: Option<Rc<Vec<bool>>>,
    pub format: Callback<i64, String>,
    pub on_pick: Callback<StrId>,
    /// A search jump: the node to reveal and focus (bumped to repeat).
    #[prop_or_default]
    pub reveal: Option<(u32, u32)>,
    /// The transforms menu's node for a node of the tree.
    pub node_menu: Callback<u32, Option<MenuNode>>,
    /// A right-click or long press asks for the menu.
    pub on_menu: Callback<OpenMenu>,
    /// A transform chosen with its key on the focused row.
    pub on_step: Callback<Step>,
    /// uftrace's read-trigger deltas summed per node ("Δ rss", "Δ faults"
    /// columns), when the trace has them.
    #[prop_or_default]
    pub deltas: Option<Rc<TreeDeltas>>,
}

pub enum Msg {
    Sort(SortBy),
    Toggle(u32),
    Focus(usize),
    Key(KeyboardEvent),
    /// Open the menu of a row's node at client (x, y).
    Menu(u32, f64, f64),
    /// A press on a row's node at client (x, y) began, moved, ended.
    Press(u32, f64, f64),
    PressMoved(f64, f64),
    PressEnded,
}

pub struct CallTable {
    expanded: HashSet<u32>,
    sort: SortBy,
    focus: usize,
    body: NodeRef,
    /// A key moved the focus: focus the row again after rendering.
    refocus: bool,
    long_press: LongPress,
}

fn heaviest_path(tree: &CallTree, levels: usize) -> HashSet<u32> {
    let mut open = HashSet::new();
    let mut at = 0;
    for _ in 0..levels {
        let Some(&first) = tree.get(at).and_then(|n| n.children.first()) else {
            break;
        };
        open.insert(first);
        at = first;
    }
    open
}

impl Component for CallTable {
    type Message = Msg;
    type Properties = Props;

    fn create(ctx: &Context<Self>) -> Self {
        let props = ctx.props();
        CallTable {
            expanded: if props.inverted {
                HashSet::new()
            } else {
                heaviest_path(&props.tree, OPEN_LEVELS)
            },
            sort: SortBy::default(),
            focus: 0,
            body: NodeRef::default(),
            refocus: false,
            long_press: LongPress::default(),
        }
    }

    fn changed(&mut self, ctx: &Context<Self>, old: &Props) -> bool {
        let props = ctx.props();
        if !Rc::ptr_eq(&props.tree, &old.tree) {
            *self = <CallTable as Component>::create(ctx);
        }
        if props.reveal != old.reveal {
            if let Some((node, _)) = props.reveal {
                // Open every ancestor, then focus the node's row.
                for a in props.tree.path_to(node) {
                    if a != node {
                        self.expanded.insert(a);
                    }
                }
                if let Some(i) = self.rows(ctx).iter().position(|r| r.node == node) {
                    self.focus = i;
                }
            }
        }
        true
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::Sort(by) => self.sort = by,
            Msg::Toggle(node) => {
                if !self.expanded.remove(&node) {
                    self.expanded.insert(node);
                }
            }
            Msg::Focus(i) => self.focus = i,
            Msg::Menu(node, x, y) => {
                if let Some(node) = ctx.props().node_menu.emit(node) {
                    ctx.props().on_menu.emit(OpenMenu { x, y, node });
                }
                return false;
            }
            Msg::Press(node, x, y) => {
                let link = ctx.link().clone();
                self.long_press
                    .down(x, y, move || link.send_message(Msg::Menu(node, x, y)));
                return false;
            }
            Msg::PressMoved(x, y) => {
                self.long_press.moved(x, y);
                return false;
            }
            Msg::PressEnded => {
                self.long_press.up();
                return false;
            }
            Msg::Key(e) => {
                let rows = self.rows(ctx);
                if is_menu_key(&e.key()) {
                    let props = ctx.props();
                    let node = rows.get(self.focus).map(|r| r.node);
                    let step = node
                        .and_then(|n| props.node_menu.emit(n))
                        .and_then(|n| step_for_key(&n, &e.key()));
                    if let Some(step) = step {
                        e.prevent_default();
                        props.on_step.emit(step);
                    }
                    return false;
                }
                let key = match e.key().as_str() {
                    "ArrowUp" => Move::Up,
                    "ArrowDown" => Move::Down,
                    "ArrowRight" => Move::Right,
                    "ArrowLeft" => Move::Left,
                    "Enter" => {
                        if let Some(n) = rows
                            .get(self.focus)
                            .and_then(|r| ctx.props().tree.get(r.node))
                        {
                            ctx.props().on_pick.emit(n.name);
                        }
                        return false;
                    }
                    _ => return false,
                };
                e.prevent_default();
                self.refocus = true;
                let (focus, toggle) =
                    key_move(&ctx.props().tree, &rows, &self.expanded, self.focus, key);
                self.focus = focus;
                match toggle {
                    Some((node, true)) => {
                        self.expanded.insert(node);
                    }
                    Some((node, false)) => {
                        self.expanded.remove(&node);
                    }
                    None => {}
                }
            }
        }
        true
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let props = ctx.props();
        let rows = self.rows(ctx);
        let header = |by: SortBy, label: &'static str, class: &'static str| {
            let sorted = self.sort == by;
            let onclick = ctx.link().callback(move |_: MouseEvent| Msg::Sort(by));
            html! {
                <th role="columnheader" class={class} aria-sort={if sorted { "descending" } else { "none" }}>
                    <button type="button" class="sort" data-sort={label.to_lowercase()} {onclick}>{ label }</button>
                </th>
            }
        };
        let total = props.tree.root().total.max(1) as f64;
        let onkeydown = ctx.link().callback(Msg::Key);
        let press_moved = ctx.link().callback(|e: PointerEvent| {
            Msg::PressMoved(f64::from(e.client_x()), f64::from(e.client_y()))
        });
        let press_ended = ctx.link().callback(|_: PointerEvent| Msg::PressEnded);
        html! {
            <div class="calltree-scroll">
                <table id="calltree" role="treegrid" class="calltree" data-inverted={props.inverted.to_string()}
                    aria-label={if props.inverted { "Bottom-up call tree: functions, then their callers" } else { "Top-down call tree" }}
                    {onkeydown}>
                    <thead><tr role="row">
                        { header(SortBy::SelfTime, "Self", "num") }
                        { header(SortBy::Total, "Total", "num") }
                        { header(SortBy::Calls, "Calls", "num") }
                        { for props.deltas.iter().flat_map(|d| d.columns.iter().enumerate()).map(|(at, c)| {
                            let by = SortBy::Delta(at);
                            let onclick = ctx.link().callback(move |_: MouseEvent| Msg::Sort(by));
                            html! {
                                <th role="columnheader" class="num delta" title={c.description()}
                                    aria-sort={if self.sort == by { "descending" } else { "none" }}>
                                    <button type="button" class="sort" data-sort={format!("delta-{at}")} {onclick}>{ c.title() }</button>
                                </th>
                            }
                        }) }
                        { header(SortBy::Name, "Function", "name") }
                    </tr></thead>
                    <tbody ref={self.body.clone()} onpointermove={press_moved} onpointerup={press_ended.clone()}
                        onpointercancel={press_ended.clone()} onpointerleave={press_ended}>{ for rows.iter().enumerate().map(|(i, row)| self.row_html(ctx, total, i, row)) }</tbody>
                </table>
                if rows.len() >= MAX_ROWS {
                    <p class="note">{ format!("Showing the first {MAX_ROWS} rows; collapse some to see the rest.") }</p>
                }
            </div>
        }
    }

    fn rendered(&mut self, _ctx: &Context<Self>, _first: bool) {
        // After a key press, the focused row takes the keyboard focus (and
        // scrolls into view).
        if !std::mem::take(&mut self.refocus) {
            return;
        }
        let Some(body) = self.body.cast::<HtmlElement>() else {
            return;
        };
        if let Ok(Some(row)) = body.query_selector("tr.focused") {
            if let Ok(row) = row.dyn_into::<HtmlElement>() {
                let _ = row.focus();
            }
        }
    }
}

use wasm_bindgen::JsCast;

impl CallTable {
    /// One row of the table: the node's numbers and name, with its
    /// twisty, click (focus), double-click (pick), right-click and long
    /// press (menu).
    fn row_html(&self, ctx: &Context<Self>, total: f64, i: usize, row: &Row) -> Html {
        let props = ctx.props();
        let Some(n) = props.tree.get(row.node) else {
            return html! {};
        };
        let name = props.loaded.trace.str(n.name).to_owned();
        let has_children = !n.children.is_empty();
        let open = self.expanded.contains(&row.node);
        let node = row.node;
        let toggle = ctx.link().callback(move |e: MouseEvent| {
            e.stop_propagation();
            Msg::Toggle(node)
        });
        let focus = ctx.link().callback(move |_: MouseEvent| Msg::Focus(i));
        let menu = ctx.link().callback(move |e: MouseEvent| {
            e.prevent_default();
            Msg::Menu(node, f64::from(e.client_x()), f64::from(e.client_y()))
        });
        let press = ctx.link().batch_callback(move |e: PointerEvent| {
            (e.button() == 0)
                .then(|| Msg::Press(node, f64::from(e.client_x()), f64::from(e.client_y())))
        });
        let matched = props
            .marks
            .as_ref()
            .map(|m| m.get(n.name as usize).copied().unwrap_or(false));
        let pick = {
            let on_pick = props.on_pick.clone();
            let id = n.name;
            Callback::from(move |_: MouseEvent| on_pick.emit(id))
        };
        html! {
            <tr key={row.node.to_string()} role="row" aria-level={row.level.to_string()} data-node={row.node.to_string()}
                data-name={name.clone()} aria-expanded={has_children.then(|| open.to_string())}
                aria-selected={(i == self.focus).to_string()} tabindex={if i == self.focus { "0" } else { "-1" }}
                class={classes!(matched.map(|m| if m { "match" } else { "dim" }), (i == self.focus).then_some("focused"))}
                onclick={focus} ondblclick={pick} oncontextmenu={menu} onpointerdown={press}>
                <td role="gridcell" class="num">{ props.format.emit(n.self_time) }</td>
                <td role="gridcell" class="num">{ props.format.emit(n.total) }
                    <span class="pct">{ format!("{:.1}%", 100.0 * n.total as f64 / total) }</span></td>
                <td role="gridcell" class="num">{ n.calls }</td>
                { for props.deltas.iter().flat_map(|d| d.columns.iter().enumerate().map(move |(c, column)| {
                    let value = d.get(c, row.node).map(|v| column.text(v)).unwrap_or_default();
                    html! { <td role="gridcell" class="num delta">{ value }</td> }
                })) }
                <td role="gridcell" class={format!("name level-{}", row.level.min(40))}>
                    if has_children {
                        <button type="button" class="twisty" tabindex="-1" aria-label={if open { "collapse" } else { "expand" }}
                            onclick={toggle}>{ if open { "▾" } else { "▸" } }</button>
                    } else { <span class="twisty leaf" /> }
                    { name }
                </td>
            </tr>
        }
    }

    fn rows(&self, ctx: &Context<Self>) -> Vec<Row> {
        let props = ctx.props();
        let tree = &props.tree;
        let name = |n: u32| {
            tree.get(n)
                .map_or_else(String::new, |n| props.loaded.trace.str(n.name).to_owned())
        };
        let delta = |column: usize, node: u32| props.deltas.as_ref()?.get(column, node);
        let keys = SortKeys {
            name: &name,
            delta: &delta,
        };
        visible_rows(tree, &self.expanded, self.sort, &keys, MAX_ROWS)
    }
}
