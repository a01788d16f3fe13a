//! The loading view once a decoding worker sent a picture of what it
//! decoded so far (`loading::preview`): a bar marking the picture as partial
//! (bytes read, Cancel), and the timeline of that picture. Nothing here
//! needs the whole trace: one chart per load takes each new picture in
//! (`FlameChart`'s `changed`), the sidebar and the aggregated views wait for the
//! end of the load, and the chart's selection, range, lane and narrowing
//! requests go nowhere.

use crate::loading::preview::Partial;
use crate::loading::slot::Progress;
use crate::render::colors::Colouring;
use crate::ui::flamechart::publish::OnReport;
use crate::ui::flamechart::FlameChart;
use crate::view_model::text::bytes;
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
    let read = if progress.total > 0.0 && progress.read < progress.total {
        format!("{} of {} read", bytes(progress.read), bytes(progress.total))
    } else {
        format!("{} read; preparing the whole trace", bytes(progress.total))
    };
    let cancel = on_cancel.reform(|_: MouseEvent| ());
    html! {
        <section class="partial" data-partial={partial.number.to_string()}>
            <div class="partial-bar" role="status" aria-live="polite">
                <span id="partial-mark" class="partial-mark">{ "Loading — partial picture" }</span>
                <progress id="progress" max={progress.total.max(1.0).to_string()} value={progress.read.to_string()}></progress>
                <span class="muted partial-note">
                    { format!("{read} · {lanes} lanes so far, calls of the top levels at screen resolution (deeper calls when loading ends) · the flame graph, call tree and other views open when loading ends") }
                </span>
                <button type="button" id="cancel" class="button" onclick={cancel}>{ "Cancel" }</button>
            </div>
            <div class="workspace partial-chart" title={format!("{spans} calls drawn so far")}>
                <FlameChart key={format!("partial.{load}")} loaded={partial.loaded.clone()}
                    selected={None} on_select={Callback::noop()} focus={None} {colouring}
                    on_report={on_report.clone()} />
            </div>
        </section>
    }
}
