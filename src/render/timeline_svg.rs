//! The timeline's window as a standalone SVG file ("Export SVG" on the
//! timeline): the ruler, the visible lanes with their titles and markers,
//! the spans as the canvas draws them (sub-pixel runs merged into one box by
//! `layout::layout_spans`, so the file grows with the pixels on screen, not
//! with the spans in the window), labels cut to their box, and the counter
//! tracks as one path each. Text is XML-escaped; nothing refers outside the
//! file.

use super::svg::escape;
use crate::render::colors::{colour_of, theme, PALETTE};
use crate::render::fill::{gapped_width, span_fill, Fill};
use crate::render::text::{fit_label, trim_number, MIN_LABEL_PX};
use crate::timeline::{ChartModel, COUNTER_HEIGHT, LANE, RULER_HEIGHT};
use flamedrop_core::layout::counter::{counter_columns, counter_range};
use flamedrop_core::layout::{layout_instants, layout_spans, ruler, Lane, ThreadIndex};
use flamedrop_core::model::{Thread, Trace};
use std::fmt::Write as _;

/// Average glyph width of the 11 px font, to decide what text fits.
const CHAR_PX: f64 = 6.2;
/// Minimum pixels between ruler labels (as on the canvas).
const TICK_SPACING_PX: f64 = 96.0;

/// What the export draws: the trace and the chart's state as painted.
pub struct TimelineSvg<'a> {
    pub trace: &'a Trace,
    /// Per thread: span indices by depth.
    pub index: &'a [ThreadIndex],
    /// The absolute time view offsets count from.
    pub origin: i64,
    /// Lane titles, by thread index.
    pub titles: &'a [String],
    pub model: &'a ChartModel,
    pub dark: bool,
    /// Calls are coloured by their group rather than their name.
    pub by_group: bool,
}

impl TimelineSvg<'_> {
    /// The SVG text.
    pub fn render(&self) -> String {
        let t = theme(self.dark);
        let (width, height) = (self.model.view.width, self.model.height);
        let unit = self.trace.time_unit.map_or("ns", |u| u.name());
        let mut out = String::new();
        let _ = write!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="'DejaVu Sans', system-ui, sans-serif" font-size="11"><rect width="100%" height="100%" fill="{}"/><defs><clipPath id="lanes"><rect x="0" y="{RULER_HEIGHT}" width="{width}" height="{}"/></clipPath></defs><g clip-path="url(#lanes)">"#,
            t.background,
            (height - RULER_HEIGHT).max(0.0)
        );
        for lane in &self.model.lanes {
            let top = self.model.screen_y(lane.top);
            if top > height || top + lane.height < RULER_HEIGHT {
                continue;
            }
            self.lane(&mut out, lane, top);
        }
        for track in &self.model.counters {
            let top = self.model.screen_y(track.top);
            if top > height || top + track.height < RULER_HEIGHT {
                continue;
            }
            self.counter(&mut out, track.counter, top);
        }
        out.push_str("</g>");
        // The ruler.
        let _ = write!(
            out,
            r#"<rect width="{width}" height="{RULER_HEIGHT}" fill="{}"/><rect y="{}" width="{width}" height="1" fill="{}"/>"#,
            t.ruler,
            RULER_HEIGHT - 1.0,
            t.lane_separator
        );
        let view = &self.model.view;
        let ticks = ruler::ticks(view, TICK_SPACING_PX);
        let mut label = String::new();
        for tick in ticks.iter(view) {
            let x = view.x_of(tick).round();
            ruler::tick_label(tick, ticks.step, unit, &mut label);
            if x + 4.0 + label.chars().count() as f64 * CHAR_PX > width - 2.0 {
                continue;
            }
            let _ = write!(
                out,
                r#"<rect x="{x}" y="{}" width="1" height="6" fill="{}"/><text x="{}" y="15" fill="{}">{}</text>"#,
                RULER_HEIGHT - 7.0,
                t.lane_separator,
                x + 4.0,
                t.ruler_text,
                escape(&label)
            );
        }
        if let Some(name) = crate::timeline::ruler_unit_label(unit) {
            let _ = write!(
                out,
                r#"<text x="{}" y="15" text-anchor="end" fill="{}">{}</text>"#,
                width - 8.0,
                t.muted,
                escape(name)
            );
        }
        out.push_str("</svg>\n");
        out
    }

    /// One lane: header, title, markers, then its visible rows.
    fn lane(&self, out: &mut String, lane: &Lane, top: f64) {
        let (Some(thread), Some(index)) = (
            self.trace.threads.get(lane.thread),
            self.index.get(lane.thread),
        ) else {
            return;
        };
        self.lane_header(out, lane, thread, top);
        self.rows(out, lane, thread, index);
    }

    /// A lane's header line: band, instant markers, title.
    fn lane_header(&self, out: &mut String, lane: &Lane, thread: &Thread, top: f64) {
        let t = theme(self.dark);
        let width = self.model.view.width;
        let _ = write!(
            out,
            r#"<rect y="{top}" width="{width}" height="{}" fill="{}"/><rect y="{top}" width="{width}" height="1" fill="{}"/>"#,
            LANE.header, t.lane_header, t.lane_separator
        );
        let mut markers = Vec::new();
        layout_instants(
            &thread.instants,
            &self.model.view,
            self.origin,
            &mut markers,
        );
        if !markers.is_empty() {
            let base = top + LANE.header - 2.0;
            let _ = write!(out, r#"<path fill="{}" d=""#, t.marker);
            for m in &markers {
                let x = f64::from(m.x);
                let _ = write!(out, "M{:.1} {:.1}h8l-4 7z", x - 4.0, base - 7.0);
            }
            out.push_str(r#""/>"#);
        }
        let title = self.titles.get(lane.thread).map_or("", String::as_str);
        let _ = write!(
            out,
            r#"<text x="8" y="{}" font-weight="600" fill="{}">{}</text>"#,
            top + 15.0,
            t.lane_text,
            escape(title)
        );
    }

    /// A lane's visible rows: one box per rectangle, with its label when
    /// it fits.
    fn rows(&self, out: &mut String, lane: &Lane, thread: &Thread, index: &ThreadIndex) {
        let t = theme(self.dark);
        let width = self.model.view.width;
        let visible = self.model.scroll..self.model.scroll + self.model.lanes_height();
        let rows = lane.rows_between(visible.start, visible.end, &LANE);
        let mut rects = Vec::new();
        layout_spans(
            &thread.spans,
            index,
            &self.model.view,
            self.origin,
            rows,
            &mut rects,
        );
        let mut label = String::new();
        for r in &rects {
            let k = r.span as usize;
            let id = thread.spans.name.get(k).copied();
            let name = id.map_or("", |n| self.trace.str(n));
            let flags = thread.spans.flags.get(k).copied().unwrap_or(0);
            // The canvas' colour rules, without the search.
            let fill = match span_fill(flags, id.unwrap_or(0), None) {
                Fill::OffCpu => t.off_cpu,
                _ => PALETTE[usize::from(colour_of(name, self.by_group))],
            };
            let y = self
                .model
                .screen_y(lane.row_top(usize::from(r.depth), &LANE));
            let w = gapped_width(r.w, r.count);
            let _ = write!(
                out,
                r#"<rect x="{:.1}" y="{y}" width="{w:.1}" height="{}" fill="{fill}"/>"#,
                r.x,
                LANE.row - 1.0
            );
            if r.count != 1 || f64::from(r.w) < MIN_LABEL_PX {
                continue;
            }
            let left = f64::from(r.x).max(0.0);
            let right = (f64::from(r.x) + f64::from(r.w)).min(width);
            let room = right - left - 8.0;
            let full = name.chars().count() as f64 * CHAR_PX;
            if fit_label(name, full, room, CHAR_PX, &mut label) {
                let _ = write!(
                    out,
                    r#"<text x="{:.1}" y="{}" fill="{}">{}</text>"#,
                    left + 4.0,
                    y + 12.5,
                    t.span_text,
                    escape(&label)
                );
            }
        }
    }

    /// One counter track: title, then one column per pixel as one path.
    fn counter(&self, out: &mut String, counter: usize, top: f64) {
        let t = theme(self.dark);
        let width = self.model.view.width;
        let Some(counter) = self.trace.counters.get(counter) else {
            return;
        };
        let (lo, hi) = counter_range(counter);
        let _ = write!(
            out,
            r#"<rect y="{top}" width="{width}" height="{}" fill="{}"/><rect y="{top}" width="{width}" height="1" fill="{}"/><text x="8" y="{}" font-weight="600" fill="{}">{} ({}) — peak {}</text>"#,
            LANE.header,
            t.lane_header,
            t.lane_separator,
            top + 15.0,
            t.lane_text,
            escape(&counter.name),
            escape(&counter.unit),
            trim_number(hi)
        );
        let base = top + LANE.header + COUNTER_HEIGHT;
        let scale = COUNTER_HEIGHT / (hi - lo);
        let _ = write!(
            out,
            r#"<path fill="{}" d=""#,
            PALETTE[usize::from(colour_of(&counter.name, self.by_group))]
        );
        for (x, value) in counter_columns(counter, &self.model.view, self.origin)
            .iter()
            .enumerate()
        {
            if let Some(v) = value {
                let h = ((v - lo) * scale).max(1.0);
                let _ = write!(out, "M{x} {:.1}h1v{h:.1}h-1z", base - h);
            }
        }
        out.push_str(r#""/>"#);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flamedrop_core::model::{Format, TimeUnit, TraceBuilder};

    /// One thread: `vector<int>&` over the whole trace, then 10 000 calls of
    /// 1 unit each under it, far narrower than a pixel.
    fn trace() -> Trace {
        let mut b = TraceBuilder::new(Format::Uftrace, TimeUnit::Ns);
        let p = b.process("1", "p");
        let t = b.thread(p, "1", "main <thread>");
        let outer = b.intern("vector<int>&");
        let inner = b.intern("tiny");
        b.begin(t, 0, outer, 0);
        for i in 0..10_000 {
            b.begin(t, 10 + i * 2, inner, 0);
            b.end(t, 11 + i * 2);
        }
        b.end(t, 100_000);
        b.finish()
    }

    #[test]
    fn the_window_becomes_merged_boxes_with_escaped_labels() {
        let trace = trace();
        let index: Vec<ThreadIndex> = trace
            .threads
            .iter()
            .map(|t| ThreadIndex::new(&t.spans))
            .collect();
        let (origin, end) = trace.time_range().unwrap();
        let mut model = ChartModel::new(
            (end - origin) as f64,
            index.iter().enumerate().map(|(t, i)| (t, i.depths())),
            None,
        );
        model.resize(800.0, 400.0);
        let titles = vec!["p <1> & co".to_owned()];
        let svg = TimelineSvg {
            trace: &trace,
            index: &index,
            origin,
            titles: &titles,
            model: &model,
            dark: false,
            by_group: false,
        }
        .render();
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
        assert!(svg.contains(">vector&lt;int&gt;&amp;</text>"), "{svg}");
        assert!(svg.contains(">p &lt;1&gt; &amp; co</text>"));
        assert!(!svg.contains("<int>"));
        // 10 000 sub-pixel calls are a few hundred boxes at most.
        let rects = svg.matches("<rect").count();
        assert!(rects < 900, "{rects} rects");
        assert!(svg.len() < 100_000, "{} bytes", svg.len());
    }
}
