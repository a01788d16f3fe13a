//! The Listing view's markup: the toolbar (columns as uftrace's `-f`, the
//! time range, Copy, Save, the row count and notes), then the scroll box
//! with the header lines and the rows on screen — each `div.listing-row`
//! with its `data-row`, a fold mark when it has rows under it, and its
//! call's timeline colour.

use super::{ListingView, Msg};
use crate::render::colors::colour_of;
use crate::view_model::listing::{fields_spec, folds, toggled};
use crate::view_model::{text, ViewChange};
use flamedrop_core::analysis::listing::{Listing, ListingOptions, ReplayField, RowKind};
use flamedrop_core::model::Format;
use yew::prelude::*;

/// Rows a Copy puts on the clipboard at most (Save takes any length).
pub const COPY_MAX_ROWS: usize = 200_000;

/// The whole view.
pub fn view(view: &ListingView, ctx: &Context<ListingView>) -> Html {
    let props = ctx.props();
    let body = match props.built.as_ref().map(|b| b.0.as_ref()) {
        None => html! {
            <p class="note empty-view" id="listing-note" role="status">{ "Building the listing…" }</p>
        },
        Some(Err(error)) => html! {
            <p class="note empty-view" id="listing-note" role="status">{ capitalised(&error.to_string()) }</p>
        },
        Some(Ok(listing)) => list(view, ctx, listing),
    };
    html! {
        <section id="listing" class="listing">
            { toolbar(view, ctx) }
            { body }
        </section>
    }
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| {
        c.to_uppercase().chain(chars).collect::<String>() + "."
    })
}

/// The scroll box: header lines, then the rows on screen.
fn list(view: &ListingView, ctx: &Context<ListingView>, listing: &Listing) -> Html {
    let props = ctx.props();
    let trace = &props.loaded.trace;
    let Some((_, shown)) = view.shown(props) else {
        return html! {};
    };
    if shown.is_empty() && props.range.is_some() {
        return html! {
            <p class="note empty-view" id="listing-note" role="status">
                { "No row of the listing falls in the selected time range (a call that spans it starts and ends outside)." }
            </p>
        };
    }
    let header = listing.header(trace);
    let first = view.top.floor() as usize;
    let mut line = String::with_capacity(256);
    let rows = (first..first + view.visible + 1).filter_map(|place| {
        let row = shown.row_at(place)?;
        line.clear();
        listing.write_row(trace, row, &mut line);
        let info = listing.info(trace, row);
        // The page's CSP allows no inline styles: the palette slot is a class.
        let colour = info
            .name
            .map(|n| format!("c{}", colour_of(trace.str(n), props.colouring.by_group)));
        let foldable = folds(&info, row);
        let folded = view.folds.contains_key(&row);
        let marked = view.matcher.as_ref().is_some_and(|m| m.matches(&line));
        let class = classes!(
            "listing-row",
            kind_class(info.kind),
            (view.cursor == Some(row)).then_some("selected"),
            marked.then_some("match"),
            folded.then_some("folded"),
            colour,
        );
        let mark = match (foldable, folded) {
            (false, _) => html! { <span class="fold-space"></span> },
            (true, false) => html! { <span class="fold" title="Fold">{ "▾" }</span> },
            (true, true) => html! { <span class="fold" title="Unfold">{ "▸" }</span> },
        };
        Some(html! {
            <div {class} data-row={row.to_string()}>
                { mark }<span class="text">{ line.clone() }</span>
            </div>
        })
    });
    let rows: Html = rows.collect();
    let capped = !ListingView::exact(&shown);
    html! {
        <div id="listing-scroll" class="listing-scroll" tabindex="0" ref={view.scroll.clone()}
            data-capped={capped.then_some("1")} aria-label="Listing rows"
            onscroll={ctx.link().callback(|_| Msg::Scrolled)}
            onkeydown={ctx.link().callback(Msg::Key)}>
            <div class="listing-spacer" ref={view.spacer.clone()}>
                <div class="listing-window">
                    <div class="listing-header" id="listing-header" ref={view.header.clone()}>
                        { for header.into_iter().map(|h| html! { <div class="listing-row header-line"><span class="fold-space"></span><span class="text">{ h }</span></div> }) }
                    </div>
                    <div class="listing-lines" ref={view.lines.clone()}
                        onclick={ctx.link().callback(Msg::Click)}>
                        <div ref={view.inner.clone()}>{ rows }</div>
                    </div>
                </div>
            </div>
        </div>
    }
}

fn kind_class(kind: RowKind) -> &'static str {
    match kind {
        RowKind::Entry => "entry",
        RowKind::Exit => "exit",
        RowKind::Leaf => "leaf",
        RowKind::Event => "event",
        RowKind::Record => "record",
        RowKind::Continuation => "continuation",
        RowKind::Note => "note-row",
    }
}

/// Columns, range, Copy / Save, the count and the note.
fn toolbar(view: &ListingView, ctx: &Context<ListingView>) -> Html {
    let props = ctx.props();
    let loaded = &props.loaded;
    let listing = props
        .built
        .as_ref()
        .and_then(|b| b.0.as_ref().as_ref().ok());
    let replay = matches!(
        loaded.trace.format,
        Some(Format::Uftrace | Format::Scaler | Format::Swap)
    );
    let columns = replay.then(|| columns(&props.options, &props.on_change));
    let switches = tool_switches(&props.options, loaded.trace.format, &props.on_change);
    let range = props.range.map(|(a, b)| {
        let unit = loaded.unit();
        let clear = props.on_change.reform(|_: MouseEvent| ViewChange::Range(None));
        html! {
            <span class="range-chip" id="listing-range">
                { format!("range {} – {}", text::duration(a - loaded.origin, unit), text::duration(b - loaded.origin, unit)) }
                <button type="button" class="link" onclick={clear}>{ "clear" }</button>
            </span>
        }
    });
    let count = listing.map(|l| {
        let shown = view.shown(props).map_or(0, |(_, s)| s.len());
        if shown == l.len() {
            format!("{} rows", l.len())
        } else {
            format!("{shown} of {} rows", l.len())
        }
    });
    let too_long = listing.is_none_or(|l| l.len() > COPY_MAX_ROWS);
    html! {
        <div class="toolbar listing-toolbar">
            { for columns }
            { switches }
            { for range }
            <button type="button" id="listing-copy" class="button" disabled={too_long}
                title={if too_long { "Too long for the clipboard: use Save" } else { "Copy the listing as the command line prints it" }}
                onclick={ctx.link().callback(|_| Msg::Copy)}>{ "Copy" }</button>
            <button type="button" id="listing-save" class="button" disabled={listing.is_none()}
                title="Save the listing as a text file, as the command line prints it"
                onclick={ctx.link().callback(|_| Msg::Save)}>{ "Save" }</button>
            <span class="listing-count" id="listing-count">{ count.unwrap_or_default() }</span>
            if let Some(note) = &view.note { <span class="listing-status" id="listing-status" role="status">{ note.clone() }</span> }
        </div>
    }
}

/// The `-f` columns: one toggle per field, in the order chosen.
fn columns(options: &ListingOptions, on_change: &Callback<ViewChange>) -> Html {
    let fields = &options.replay.fields;
    let toggles = ReplayField::ALL.iter().map(|&(name, field)| {
        let on = fields.contains(&field);
        let mut next = options.clone();
        next.replay.fields = toggled(fields, field);
        let onclick = on_change.reform(move |_: MouseEvent| ViewChange::Listing(next.clone()));
        html! {
            <button type="button" id={format!("listing-field-{name}")} class={classes!("seg", on.then_some("selected"))}
                aria-pressed={on.to_string()} {onclick}>{ name }</button>
        }
    });
    html! {
        <span class="listing-fields" title="Columns left of the |, as uftrace replay -f">
            <span class="segmented" role="group" aria-label="Columns">{ for toggles }</span>
            <code id="listing-fields-spec">{ format!("-f {}", fields_spec(fields)) }</code>
        </span>
    }
}

/// The original tool's switches that change its text: SELogger's
/// `-processparams`, sp-rtrace-postproc's `-l`, `-c` and `-r`.
fn tool_switches(
    options: &ListingOptions,
    format: Option<Format>,
    on_change: &Callback<ViewChange>,
) -> Html {
    type Switch = (
        &'static str,
        &'static str,
        fn(&mut ListingOptions) -> &mut bool,
    );
    let switches: &[Switch] = match format {
        Some(Format::Selogger) => &[(
            "processparams",
            "-processparams: each call's parameters with its entry",
            |o| &mut o.log_printer.process_params,
        )],
        Some(Format::SpRtrace) => &[
            ("l", "-l: only the allocations never freed", |o| {
                &mut o.postproc.leaks
            }),
            ("c", "-c: calls with the same backtrace merged", |o| {
                &mut o.postproc.compress
            }),
            (
                "r",
                "-r: frames named from the ELF files beside the trace",
                |o| &mut o.postproc.resolve,
            ),
        ],
        _ => &[],
    };
    if switches.is_empty() {
        return html! {};
    }
    let buttons = switches.iter().map(|&(name, title, field)| {
        let mut next = options.clone();
        let on = *field(&mut next.clone());
        *field(&mut next) = !on;
        let onclick = on_change.reform(move |_: MouseEvent| ViewChange::Listing(next.clone()));
        html! {
            <button type="button" id={format!("listing-opt-{name}")} class={classes!("seg", on.then_some("selected"))}
                aria-pressed={on.to_string()} {title} {onclick}>{ format!("-{name}") }</button>
        }
    });
    html! {
        <span class="listing-fields segmented" role="group" aria-label="Options">{ for buttons }</span>
    }
}
