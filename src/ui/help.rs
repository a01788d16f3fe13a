//! The shortcut help (`?`): every key the page understands.

use yew::prelude::*;

const KEYS: [(&str, &str); 36] = [
    ("?", "show or hide this help"),
    ("/", "search"),
    (
        "n / N",
        "next / previous search match (in the listing: the next row whose text matches)",
    ),
    (
        "1 – 5",
        "timeline, flame graph, sandwich, call tree, diff (with a comparison open)",
    ),
    (
        "6",
        "listing: the calls and events in time order, as the format's own tool prints them",
    ),
    (
        "7",
        "memory: live memory over time, its peak, sizes and lifetimes (traces with allocations)",
    ),
    (
        "8 / 9 / t",
        "files, network, threads: each file, socket and sync object over time (when recorded)",
    ),
    (
        "l",
        "components: time per library (self, waiting, inclusive), caller → callee flows, drill-down",
    ),
    (
        "v",
        "values (SELogger): a location's values in event order, with a chart and a jump to each event",
    ),
    (
        ", / .",
        "previous / next event of the selected event's thread (SELogger; the timeline and listing follow)",
    ),
    (
        "i / o / u",
        "step into / over / out by events (SELogger)",
    ),
    ("O / U", "step back over / back out (SELogger)"),
    (
        "b",
        "last write of the field or array element the selected event reads (SELogger)",
    ),
    ("W / S, + / −, wheel", "zoom the timeline"),
    ("A / D, drag", "pan the timeline"),
    ("↑ / ↓, shift+wheel", "scroll the lanes"),
    ("0", "show the whole trace"),
    (
        "Esc",
        "clear the selection; zoom the flame graph out one level",
    ),
    (
        "click",
        "details of a call; zoom into a flame-graph node; a listing row selects its call",
    ),
    (
        "double-click",
        "zoom the timeline to a call; open a table row in the sandwich",
    ),
    (
        "drag on the ruler",
        "limit the aggregated views to a time range (click it to clear)",
    ),
    ("click a lane title", "collapse or expand the lane"),
    ("drag a lane header", "move the lane to another place"),
    (
        "↑ ↓ ✕ on a lane header",
        "move the lane up or down, hide it",
    ),
    (
        "Lanes button",
        "list every lane: show, hide, reorder (Tab, Space); Show all resets",
    ),
    ("drag the minimap", "move the timeline's window"),
    ("↑ ↓ → ←", "move, expand and collapse rows of the call tree"),
    ("Enter", "show the focused row's function in the sandwich"),
    (
        "↑ ↓ PgUp PgDn Home End, ← →",
        "move through the listing's rows (selecting their calls); fold, unfold a call",
    ),
    (
        "right-click, long press",
        "a node's transforms (timeline, flame graph, sandwich, call tree, diff)",
    ),
    ("m / M", "merge the function / merge this node only"),
    (
        "f / F / S",
        "focus on the subtree / the function / the function's self time",
    ),
    (
        "c / C",
        "collapse the function / its module, library or class",
    ),
    ("r / R", "collapse direct recursion only / all recursion"),
    ("d", "drop the calls (samples) with the function"),
    (
        "which node",
        "m M f F S c C r R d act on the timeline's selected call, the flame graph's zoomed node, \
         the call tree's focused row, the sandwich's function; in the timeline S and d keep \
         zooming and panning (W A S D), so use the right-click menu there",
    ),
];

#[derive(Properties, PartialEq)]
pub struct Props {
    pub on_close: Callback<()>,
}

#[function_component(Help)]
pub fn help(props: &Props) -> Html {
    let close = props.on_close.reform(|_: MouseEvent| ());
    html! {
        <div class="help-backdrop" onclick={close.clone()}>
            <div id="help" class="help" role="dialog" aria-modal="true" aria-labelledby="help-title"
                onclick={Callback::from(|e: MouseEvent| e.stop_propagation())}>
                <h2 id="help-title">{ "Keyboard and mouse" }</h2>
                <dl class="facts keys">
                    { for KEYS.iter().map(|(k, what)| html! { <><dt><kbd>{ *k }</kbd></dt><dd>{ *what }</dd></> }) }
                </dl>
                <button type="button" class="button" id="help-close" onclick={close}>{ "Close" }</button>
            </div>
        </div>
    }
}
