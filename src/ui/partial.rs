//! The loading view once a decoding worker sent a picture of what it
//! decoded so far (`loading::preview`): a bar marking the picture as partial
//! (bytes read, Cancel), and the timeline of that picture. Nothing here
//! needs the whole trace: one chart per load takes each new picture in
//! (`FlameChart`'s `changed`), the sidebar and the aggregated views wait for the
//! end of the load, and the chart's selection, range, lane and narrowing
//! requests go nowhere. The chart sits in its own component ([`PartialChart`])
//! that renders again only for a new picture, and the bar ([`PartialBar`])
//! shows the bytes read as of the latest picture: the workers' progress
//! reports (every 8 MB) change nothing on the page between two pictures, so
//! the browser neither repaints the chart nor composes a new frame with its
//! whole canvas while the workers need the CPU.

use crate::loading::preview::Partial;
use crate::loading::slot::Progress;
use crate::render::colors::Colouring;
use crate::ui::flamechart::publish::OnReport;
use crate::ui::flamechart::FlameChart;
use crate::view_model::text::bytes;
use crate::view_model::Loaded;
use std::rc::Rc;
use yew::prelude::*;

/// The partial picture of load `load` under its mark, with `progress` and a
/// Cancel button; the chart reports to `on_report`.
pub fn view(
    load: u32,
    progress: &Progress,
    partial: &Partial,
    colouring: Colouring,
    on_report: &OnReport,
    on_cancel: Callback<()>,
) -> Html {
    let spans: usize = partial
        .loaded
        .trace
        .threads
        .iter()
        .map(|t| t.spans.len())
        .sum();
    let lanes = partial
        .loaded
        .trace
        .threads
        .iter()
        .filter(|t| !t.spans.is_empty())
        .count();
    html! {
        <section class="partial" data-partial={partial.number.to_string()}>
            <PartialBar key={format!("bar.{load}")} number={partial.number} read={progress.read} total={progress.total}
                {lanes} {on_cancel} />
            <div class="workspace partial-chart" title={format!("{spans} calls drawn so far")}>
                <PartialChart key={format!("partial.{load}")} loaded={partial.loaded.clone()}
                    {colouring} on_report={on_report.clone()} />
            </div>
        </section>
    }
}

/// The bar's inputs: the picture on screen and the bytes read now.
#[derive(Properties, PartialEq)]
struct BarProps {
    number: u32,
    read: f64,
    total: f64,
    lanes: usize,
    on_cancel: Callback<()>,
}

/// The mark, the bytes read and Cancel. The bytes read move with the
/// pictures (and when reading ends), not with every progress report: each
/// change of the page is a frame the browser composes with the chart's
/// whole canvas (8 ms on the main thread and 6 ms in the compositor each,
/// on a loaded machine), on the CPU the decoding workers need.
#[function_component]
fn PartialBar(props: &BarProps) -> Html {
    let shown = use_mut_ref(|| (props.number, props.read));
    let read = {
        let mut shown = shown.borrow_mut();
        if shown.0 != props.number || props.read >= props.total {
            *shown = (props.number, props.read);
        }
        shown.1
    };
    let total = props.total;
    let text = if total > 0.0 && read < total {
        format!("{} of {} read", bytes(read), bytes(total))
    } else {
        format!("{} read; preparing the whole trace", bytes(total))
    };
    let cancel = props.on_cancel.reform(|_: MouseEvent| ());
    html! {
        <div class="partial-bar" role="status" aria-live="polite">
            <span id="partial-mark" class="partial-mark">{ "Loading — partial picture" }</span>
            <progress id="progress" max={total.max(1.0).to_string()} value={read.to_string()}></progress>
            <span class="muted partial-note">
                { format!("{text} · {} lanes so far, calls of the top levels at screen resolution (deeper calls when loading ends) · the flame graph, call tree and other views open when loading ends", props.lanes) }
            </span>
            <button type="button" id="cancel" class="button" onclick={cancel}>{ "Cancel" }</button>
        </div>
    }
}

/// What the partial chart is drawn from: equal (so not drawn again) while
/// the picture, the colours and the report target stay.
#[derive(Properties, PartialEq)]
struct ChartProps {
    loaded: Rc<Loaded>,
    colouring: Colouring,
    on_report: OnReport,
}

/// The timeline of the latest picture, with no selection or requests.
#[function_component]
fn PartialChart(props: &ChartProps) -> Html {
    let nothing = use_memo((), |()| Callback::noop());
    html! {
        <FlameChart loaded={props.loaded.clone()} selected={None}
            on_select={(*nothing).clone()} focus={None} colouring={props.colouring}
            on_report={props.on_report.clone()} />
    }
}
