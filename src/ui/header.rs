//! The header's view controls: the view switcher (`button#view-<name>`
//! with `data-view`; `button#view-diff` only while a comparison is open), the search box (`input#search`, `#search-count`), the
//! export buttons (PNG, SVG), "Save analysis" (`button#save-analysis`, labelled Save), the colouring and theme toggles and the help
//! button.

use crate::view_model::{Available, View, ViewChange};
use flamedrop_core::analysis::search::MatchCount;
use wasm_bindgen::JsCast;
use web_sys::{HtmlElement, HtmlInputElement};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub view: View,
    pub search: String,
    /// The search's result, or its error (a bad regular expression).
    pub count: Option<Result<MatchCount, String>>,
    pub on_change: Callback<ViewChange>,
    pub on_theme: Callback<()>,
    pub on_help: Callback<()>,
    /// Export the view as `png` or `svg`.
    pub on_export: Callback<&'static str>,
    /// Save the analysis (trace and screen) as a `.flamedrop` file.
    #[prop_or_default]
    pub on_save: Callback<()>,
    /// Colour calls by their group (module, library, class) rather than name.
    pub by_group: bool,
    pub on_colour: Callback<()>,
    /// The theme the toggle switches to.
    pub next_theme: &'static str,
    /// What the page has: the views offered (the diff with a comparison
    /// open, Memory with allocations, …).
    #[prop_or_default]
    pub available: Available,
}

#[function_component(ViewControls)]
pub fn view_controls(props: &Props) -> Html {
    use_effect_with(props.view, |view| reveal_tab(*view));
    let switcher = View::offered(props.available).map(|view| {
        let selected = view == props.view;
        let onclick = props.on_change.reform(move |_: MouseEvent| ViewChange::View(view));
        html! {
            <button type="button" role="tab" id={format!("view-{}", view.name())} data-view={view.name()}
                class={classes!("tab", selected.then_some("selected"))} aria-selected={selected.to_string()} {onclick}>
                { view.label() }
            </button>
        }
    });
    let oninput = props.on_change.reform(|e: InputEvent| {
        let input: HtmlInputElement = e.target_unchecked_into();
        ViewChange::Search(input.value())
    });
    let count = match &props.count {
        None => String::new(),
        Some(Ok(c)) => format!("{} functions · {} calls", c.functions, c.calls),
        Some(Err(e)) => format!("bad expression: {e}"),
    };
    let bad = matches!(props.count, Some(Err(_)));
    // A view without a canvas (the call tree, a table) exports nothing.
    let no_image = props.view.canvas_id().is_none();
    html! {
        <div class="view-controls">
            <nav class="views tabs" role="tablist" aria-label="Views" onwheel={Callback::from(scroll_sideways)}>
                { for switcher }
            </nav>
            <span class="search">
                <input id="search" type="search" placeholder="Search (text or /regex/)" aria-label="Search functions"
                    aria-describedby="search-count" value={props.search.clone()} {oninput}
                    class={classes!(bad.then_some("invalid"))} />
                <span id="search-count" class="search-count" aria-live="polite">{ count }</span>
            </span>
            <button type="button" id="export-png" class="button" title="Save the view as a PNG image"
                disabled={no_image} onclick={props.on_export.reform(|_| "png")}>{ "PNG" }</button>
            <button type="button" id="export-svg" class="button" title="Save the view as an SVG file"
                disabled={no_image}
                onclick={props.on_export.reform(|_| "svg")}>{ "SVG" }</button>
            <button type="button" id="save-analysis" class="button" aria-label="Save analysis"
                title="Save analysis: the trace and this screen as one .flamedrop file, to reopen or share"
                onclick={props.on_save.reform(|_| ())}>{ "Save" }</button>
            <button type="button" id="colour-toggle" class="button" aria-pressed={props.by_group.to_string()}
                title="Colour calls by name, or by module / library / class" onclick={props.on_colour.reform(|_| ())}>
                { if props.by_group { "by module" } else { "by name" } }
            </button>
            <button type="button" id="theme-toggle" class="button icon" title={format!("Switch to the {} theme", props.next_theme)}
                aria-label={format!("Switch to the {} theme", props.next_theme)} onclick={props.on_theme.reform(|_| ())}>
                { if props.next_theme == "dark" { "☾" } else { "☀" } }
            </button>
            <button type="button" id="help-button" class="button icon" title="Keyboard shortcuts (?)"
                aria-label="Keyboard shortcuts" onclick={props.on_help.reform(|_| ())}>{ "?" }</button>
        </div>
    }
}

/// The wheel over a switcher that does not fit scrolls it sideways, to the
/// tabs its shadows say are hidden (a mouse has no sideways wheel).
fn scroll_sideways(event: WheelEvent) {
    // The page's listener sits at its root (Yew delegates events): the
    // switcher is found from the tab or gap under the pointer.
    let Some(nav) = event
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|t| t.closest("nav.views").ok().flatten())
        .and_then(|n| n.dyn_into::<HtmlElement>().ok())
    else {
        return;
    };
    // Firefox counts a notch in lines, Chromium in pixels.
    let unit = match event.delta_mode() {
        WheelEvent::DOM_DELTA_LINE => 16.0,
        WheelEvent::DOM_DELTA_PAGE => f64::from(nav.client_width()),
        _ => 1.0,
    };
    let (down, across) = (event.delta_y() * unit, event.delta_x() * unit);
    if nav.scroll_width() > nav.client_width() && down.abs() > across.abs() {
        nav.set_scroll_left(nav.scroll_left() + down.round() as i32);
    }
}

/// Scrolls the switcher so that `view`'s tab shows: on a narrow window the
/// switcher scrolls sideways rather than running under the buttons.
fn reveal_tab(view: View) {
    let tab = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(&format!("view-{}", view.name())))
        .and_then(|t| t.dyn_into::<HtmlElement>().ok());
    let Some(tab) = tab else { return };
    let Some(nav) = tab
        .parent_element()
        .and_then(|n| n.dyn_into::<HtmlElement>().ok())
    else {
        return;
    };
    let (left, right) = (tab.offset_left(), tab.offset_left() + tab.offset_width());
    let (start, width) = (nav.offset_left(), nav.client_width());
    let shown = nav.scroll_left();
    if left - start < shown {
        nav.set_scroll_left(left - start);
    } else if right - start > shown + width {
        nav.set_scroll_left(right - start - width);
    }
}
