//! The aggregated flame graph as a standalone SVG file (the "Export SVG"
//! button): the same rectangles, colours and labels the canvas shows, with
//! a `<title>` per node so viewers show name, total and self on hover.

use crate::render::colors::{colour_of, theme, Colouring, PALETTE};
use flamedrop_core::analysis::flamegraph::layout;
use flamedrop_core::analysis::CallTree;
use flamedrop_core::model::StringTable;
use std::fmt::Write as _;

const ROW: f64 = 18.0;
/// Average glyph width of the 11 px font, to decide what text fits.
const CHAR_PX: f64 = 6.2;

/// The subtree at `zoom` of `tree` as SVG, `width` px wide; `format` prints
/// a weight.
pub fn flame_svg(
    tree: &CallTree,
    zoom: u32,
    strings: &StringTable,
    width: f64,
    colouring: Colouring,
    format: &dyn Fn(i64) -> String,
    fills: Option<&[String]>,
) -> String {
    let t = theme(colouring.dark);
    let rects = layout(tree, zoom, 0.5 / width);
    let depth = rects.iter().map(|r| r.depth).max().map_or(0, |d| d + 1);
    let height = f64::from(depth) * ROW + 4.0;
    let mut out = String::new();
    let _ = write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="'DejaVu Sans', system-ui, sans-serif" font-size="11"><rect width="100%" height="100%" fill="{}"/>"#,
        t.background
    );
    for r in &rects {
        let Some(node) = tree.get(r.node) else {
            continue;
        };
        let name = strings.get(node.name);
        let (x, w, y) = (
            r.x0 * width,
            (r.x1 - r.x0) * width,
            f64::from(r.depth) * ROW,
        );
        // The diff view colours each node by its change; the others by name.
        let fill = fills.and_then(|f| f.get(r.node as usize)).map_or(
            PALETTE[usize::from(colour_of(name, colouring.by_group))],
            String::as_str,
        );
        let _ = write!(
            out,
            r#"<g><title>{} — total {}, self {}, {} calls</title><rect x="{x:.2}" y="{y}" width="{:.2}" height="{}" fill="{fill}"/>"#,
            escape(name),
            format(node.total),
            format(node.self_time),
            node.calls,
            (w - 1.0).max(0.5),
            ROW - 1.0
        );
        let fits = ((w - 8.0) / CHAR_PX).floor() as usize;
        if fits >= 3 {
            let label: String = if name.chars().count() > fits {
                name.chars().take(fits - 1).chain(['…']).collect()
            } else {
                name.to_owned()
            };
            let _ = write!(
                out,
                r#"<text x="{:.2}" y="{}" fill="{}">{}</text>"#,
                x + 4.0,
                y + 12.5,
                t.span_text,
                escape(&label)
            );
        }
        out.push_str("</g>");
    }
    out.push_str("</svg>\n");
    out
}

/// Escapes text for XML.
pub(crate) fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use flamedrop_core::analysis::calltree::Node;

    #[test]
    fn nodes_become_titled_rectangles_with_escaped_names() {
        let strings = StringTable::from_vec(vec!["main".into(), "vector<int>&".into()]);
        let node = |name, parent, total, children: Vec<u32>| Node {
            name,
            parent,
            total,
            self_time: 0,
            calls: 1,
            children,
        };
        let tree = CallTree {
            nodes: vec![
                node(u32::MAX, 0, 100, vec![1]),
                node(0, 0, 100, vec![2]),
                node(1, 1, 50, vec![]),
            ],
        };
        let svg = flame_svg(
            &tree,
            0,
            &strings,
            400.0,
            Colouring::default(),
            &|v| format!("{v} ns"),
            None,
        );
        assert!(svg.starts_with("<svg"));
        assert_eq!(svg.matches("<rect x=").count(), 2);
        assert!(svg.contains("<title>vector&lt;int&gt;&amp; — total 50 ns"));
        assert!(svg.contains(r#"width="199.00""#));
    }
}
