//! The timeline's "Lanes" popover (`#lanes-list`): every thread lane and
//! counter track in the order they are stacked, each with a visibility
//! checkbox and move up / move down buttons, and "Show all" to go back to the
//! trace's own order with everything shown. Plain form controls, so it is
//! reachable and usable from the keyboard; Escape closes it.

use crate::timeline::lane_layout::{LaneKey, LaneLayout};
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    /// Every lane in the trace's own order, with its title.
    pub all: Rc<Vec<(LaneKey, String)>>,
    pub layout: LaneLayout,
    pub on_change: Callback<LaneLayout>,
    pub on_close: Callback<()>,
}

#[function_component(LanesList)]
pub fn lanes_list(props: &Props) -> Html {
    let keys: Rc<Vec<LaneKey>> = Rc::new(props.all.iter().map(|(k, _)| k.clone()).collect());
    let arranged = props.layout.arranged(&keys);
    let title_of = |key: &LaneKey| {
        props
            .all
            .iter()
            .find(|(k, _)| k == key)
            .map_or_else(String::new, |(_, t)| t.clone())
    };
    let last = arranged.len().saturating_sub(1);
    let rows = arranged.iter().enumerate().map(|(i, key)| {
        let title = title_of(key);
        let hidden = props.layout.is_hidden(key);
        let change = |f: Box<dyn Fn(&mut LaneLayout)>| {
            let (layout, on_change) = (props.layout.clone(), props.on_change.clone());
            Callback::from(move |_: MouseEvent| {
                let mut layout = layout.clone();
                f(&mut layout);
                on_change.emit(layout);
            })
        };
        let toggle = {
            let key = key.clone();
            change(Box::new(move |l: &mut LaneLayout| {
                let hidden = l.is_hidden(&key);
                l.set_hidden(&key, !hidden);
            }))
        };
        let mover = |delta: isize| {
            let (key, keys) = (key.clone(), keys.clone());
            change(Box::new(move |l: &mut LaneLayout| l.move_by(&keys, &key, delta)))
        };
        let id = format!("lane-show-{i}");
        let kind = if matches!(key, LaneKey::Counter(_)) { "counter" } else { "thread" };
        html! {
            <li class={classes!("lane-entry", hidden.then_some("hidden-lane"))} data-lane={key.name()} data-kind={kind}>
                <input type="checkbox" id={id.clone()} checked={!hidden} onclick={toggle} />
                <label for={id} title={title.clone()}>{ title.clone() }</label>
                <button type="button" class="button icon lane-up" disabled={i == 0}
                    aria-label={format!("Move {title} up")} onclick={mover(-1)}>{ "↑" }</button>
                <button type="button" class="button icon lane-down" disabled={i == last}
                    aria-label={format!("Move {title} down")} onclick={mover(1)}>{ "↓" }</button>
            </li>
        }
    });
    let reset = props
        .on_change
        .reform(|_: MouseEvent| LaneLayout::default());
    let close = props.on_close.reform(|_: MouseEvent| ());
    let onkeydown = props.on_close.reform(|_: KeyboardEvent| ());
    let onkeydown = Callback::from(move |e: KeyboardEvent| {
        if e.key() == "Escape" {
            e.stop_propagation();
            onkeydown.emit(e);
        }
    });
    html! {
        <div id="lanes-list" class="lanes-list" role="dialog" aria-label="Lanes" {onkeydown}>
            <div class="lanes-list-head">
                <strong>{ "Lanes" }</strong>
                <span class="muted">{ format!("{} of {} shown", arranged.len() - props.layout.hidden.iter().filter(|k| keys.contains(k)).count(), arranged.len()) }</span>
                <button type="button" id="lanes-show-all" class="button" onclick={reset}>{ "Show all" }</button>
                <button type="button" class="button icon" aria-label="Close the lanes list" onclick={close}>{ "✕" }</button>
            </div>
            <ul>{ for rows }</ul>
        </div>
    }
}
