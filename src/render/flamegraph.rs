//! Painting the aggregated flame graph: one rectangle per call-tree node
//! laid out by `flamedrop_core::analysis::flamegraph`, coloured by name,
//! labelled where there is room; search matches keep their colour while
//! everything else is greyed, and the hovered node is outlined. Callers in
//! the sandwich are drawn upside down (the function at the bottom). The diff
//! view passes a colour per node (the change in self time) and outlines
//! every rectangle of the function picked in its table.

use super::colors::{self, colour_of, PALETTE};
use super::text::{fit_label, MIN_LABEL_PX};
use flamedrop_core::analysis::flamegraph::FlameRect;
use flamedrop_core::analysis::CallTree;
use flamedrop_core::model::{StrId, StringTable};
use web_sys::CanvasRenderingContext2d;

/// Height of one row (CSS px).
pub const ROW: f64 = 18.0;
const FONT: &str = "11px 'DejaVu Sans', system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";

/// What one frame of the flame graph shows.
pub struct FlameFrame<'a> {
    pub tree: &'a CallTree,
    pub rects: &'a [FlameRect],
    pub strings: &'a StringTable,
    pub width: f64,
    pub height: f64,
    /// Rows grow upwards from the bottom.
    pub upside_down: bool,
    /// Per string id: matches the search (absent: no search).
    pub marks: Option<&'a [bool]>,
    pub hover: Option<u32>,
    pub dark: bool,
    /// Calls are coloured by their group rather than their name.
    pub by_group: bool,
    /// Per node: its fill, instead of the colour of its name.
    pub fills: Option<&'a [String]>,
    /// Outline every node of this function.
    pub outlined: Option<StrId>,
}

impl FlameFrame<'_> {
    /// The top of row `depth`.
    pub fn row_top(&self, depth: u16) -> f64 {
        let d = f64::from(depth);
        if self.upside_down {
            self.height - (d + 1.0) * ROW
        } else {
            d * ROW
        }
    }

    /// The node drawn at (`x`, `y`).
    pub fn hit(&self, x: f64, y: f64) -> Option<u32> {
        self.rects
            .iter()
            .find(|r| {
                let top = self.row_top(r.depth);
                y >= top && y < top + ROW && x >= r.x0 * self.width && x < r.x1 * self.width
            })
            .map(|r| r.node)
    }
}

/// Paints `f` onto `ctx` (already scaled to CSS px).
pub fn paint(ctx: &CanvasRenderingContext2d, f: &FlameFrame) {
    let theme = colors::theme(f.dark);
    ctx.set_fill_style_str(theme.background);
    ctx.fill_rect(0.0, 0.0, f.width, f.height);
    ctx.set_font(FONT);
    let ellipsis = ctx.measure_text("…").map_or(8.0, |m| m.width());
    let mut label = String::new();
    for r in f.rects {
        let Some(node) = f.tree.get(r.node) else {
            continue;
        };
        let name = f.strings.get(node.name);
        let x = r.x0 * f.width;
        let w = ((r.x1 - r.x0) * f.width).max(1.0);
        let y = f.row_top(r.depth);
        let dimmed = f
            .marks
            .is_some_and(|m| !m.get(node.name as usize).copied().unwrap_or(false));
        let fill = match f.fills.and_then(|fills| fills.get(r.node as usize)) {
            _ if dimmed => theme.off_cpu,
            Some(fill) => fill.as_str(),
            None => PALETTE[usize::from(colour_of(name, f.by_group))],
        };
        ctx.set_fill_style_str(fill);
        ctx.fill_rect(x, y, if w > 3.0 { w - 1.0 } else { w }, ROW - 1.0);
        if w < MIN_LABEL_PX {
            continue;
        }
        let full = ctx.measure_text(name).map_or(0.0, |m| m.width());
        let room = w - 8.0;
        if fit_label(name, full, room, ellipsis, &mut label) {
            ctx.set_fill_style_str(theme.span_text);
            let _ = ctx.fill_text_with_max_width(&label, x + 4.0, y + 12.5, room.max(1.0));
        }
    }
    if let Some(outlined) = f.outlined {
        ctx.set_stroke_style_str(theme.hover);
        ctx.set_line_width(2.0);
        for r in f.rects {
            if f.tree.get(r.node).is_some_and(|n| n.name == outlined) {
                let w = ((r.x1 - r.x0) * f.width).max(3.0);
                ctx.stroke_rect(
                    r.x0 * f.width + 1.0,
                    f.row_top(r.depth) + 1.0,
                    w - 2.0,
                    ROW - 3.0,
                );
            }
        }
    }
    if let Some(r) = f.hover.and_then(|h| f.rects.iter().find(|r| r.node == h)) {
        ctx.set_stroke_style_str(theme.hover);
        ctx.set_line_width(1.0);
        let x = r.x0 * f.width;
        let w = ((r.x1 - r.x0) * f.width).max(2.0);
        ctx.stroke_rect(x + 0.5, f.row_top(r.depth) + 0.5, w - 1.0, ROW - 2.0);
    }
}
