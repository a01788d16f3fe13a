//! The Memory view's pictures (`view_model::memory::shapes`): the colour of
//! each ink in either theme, and a picture as an SVG file (what "Export
//! SVG" saves on the Memory view). The canvas painter (`render::memory`)
//! takes its colours from here too.

use crate::render::colors::theme;
use crate::view_model::memory::chart::live_picture;
use crate::view_model::memory::shapes::{Anchor, Ink, Picture, Shape};
use crate::view_model::{Loaded, ViewState};
use std::fmt::Write as _;

/// The colour of `ink` in the light or dark theme.
pub fn ink_colour(ink: Ink, dark: bool) -> &'static str {
    let t = theme(dark);
    let (light, night) = match ink {
        Ink::Grid => return t.grid,
        Ink::Axis => return t.lane_separator,
        Ink::Text => return t.ruler_text,
        Ink::Muted => return t.muted,
        Ink::Cursor => return t.selection,
        Ink::Plot => ("#fbfcfd", "#1b1e24"),
        Ink::LiveArea => ("rgba(37, 99, 235, 0.18)", "rgba(96, 165, 250, 0.22)"),
        Ink::LiveLine => ("#2563eb", "#60a5fa"),
        Ink::Blocks => ("#7c3aed", "#c4b5fd"),
        Ink::Peak => ("#c2410c", "#fb923c"),
        Ink::Alloc => ("#0f766e", "#2dd4bf"),
        Ink::Free => ("#9ca3af", "#6b7280"),
        Ink::Freed => ("#93c5fd", "#1e40af"),
        Ink::Live => ("#dc2626", "#f87171"),
    };
    if dark {
        night
    } else {
        light
    }
}

/// The line width of `ink`'s lines.
pub fn line_width(ink: Ink) -> f64 {
    match ink {
        Ink::LiveLine | Ink::Peak | Ink::Cursor => 1.5,
        Ink::Blocks => 1.25,
        _ => 1.0,
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn points(list: &[(f64, f64)]) -> String {
    let mut out = String::new();
    for (x, y) in list {
        let _ = write!(out, "{x:.1},{y:.1} ");
    }
    out
}

/// `picture` as a standalone SVG file.
pub fn picture_svg(picture: &Picture, dark: bool) -> String {
    let (w, h) = (picture.width, picture.height);
    let mut out = String::new();
    let _ = write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="'DejaVu Sans', system-ui, sans-serif" font-size="11"><rect width="100%" height="100%" fill="{}"/>"#,
        theme(dark).background
    );
    for shape in &picture.shapes {
        match shape {
            Shape::Rect { x, y, w, h, ink } => {
                let _ = write!(
                    out,
                    r#"<rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" fill="{}"/>"#,
                    ink_colour(*ink, dark)
                );
            }
            Shape::Area { points: p, ink } => {
                let _ = write!(
                    out,
                    r#"<polygon points="{}" fill="{}"/>"#,
                    points(p),
                    ink_colour(*ink, dark)
                );
            }
            Shape::Polyline {
                points: p,
                ink,
                dashed,
            } => {
                let dash = if *dashed {
                    r#" stroke-dasharray="4 3""#
                } else {
                    ""
                };
                let _ = write!(
                    out,
                    r#"<polyline points="{}" fill="none" stroke="{}" stroke-width="{}"{dash}/>"#,
                    points(p),
                    ink_colour(*ink, dark),
                    line_width(*ink)
                );
            }
            Shape::Text {
                x,
                y,
                text,
                ink,
                anchor,
                bold,
            } => {
                let anchor = match anchor {
                    Anchor::Start => "start",
                    Anchor::Middle => "middle",
                    Anchor::End => "end",
                };
                let weight = if *bold { r#" font-weight="600""# } else { "" };
                let _ = write!(
                    out,
                    r#"<text x="{x:.1}" y="{y:.1}" text-anchor="{anchor}" fill="{}"{weight}>{}</text>"#,
                    ink_colour(*ink, dark),
                    escape(text)
                );
            }
        }
    }
    out.push_str("</svg>");
    out
}

/// Height of the exported live chart (the page's is its box's).
const CHART_HEIGHT: f64 = 340.0;

/// The Memory view's live chart for the page's state, `width` px wide, as SVG.
pub fn memory_chart_svg(
    loaded: &Loaded,
    views: &ViewState,
    width: f64,
    dark: bool,
) -> Result<String, String> {
    let memory = views.memory.for_trace(&loaded.trace);
    let s = memory
        .summarize(&loaded.trace, views.range)
        .map_err(|e| format!("{e:?}"))?;
    let picture = live_picture(loaded, &s, memory.moment, views.range, width, CHART_HEIGHT);
    Ok(picture_svg(&picture, dark))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::colors::Colouring;
    use crate::render::export::{svg, SvgInputs};
    use crate::view_model::memory::MemoryState;
    use crate::view_model::{View, ViewChange};
    use flamedrop_core::analysis::memory::Moment;

    #[test]
    fn shapes_become_svg_elements() {
        let picture = Picture {
            width: 100.0,
            height: 50.0,
            shapes: vec![
                Shape::Rect {
                    x: 1.0,
                    y: 2.0,
                    w: 3.0,
                    h: 4.0,
                    ink: Ink::Live,
                },
                Shape::line((0.0, 0.0), (10.0, 10.0), Ink::Peak, true),
                Shape::text(5.0, 6.0, "a < b", Ink::Text, Anchor::End),
            ],
        };
        let svg = picture_svg(&picture, false);
        assert!(svg.starts_with("<svg"));
        assert!(
            svg.contains(r##"<rect x="1.0" y="2.0" width="3.0" height="4.0" fill="#dc2626"/>"##)
        );
        assert!(svg.contains(r#"stroke-dasharray="4 3""#));
        assert!(svg.contains(r#"text-anchor="end""#) && svg.contains("a &lt; b"));
        assert!(svg.ends_with("</svg>"));
    }

    #[test]
    fn export_svg_draws_the_chart() {
        let loaded = crate::view_model::memory::tests_model::loaded();
        let mut views = ViewState::default();
        views.apply(ViewChange::View(View::Memory));
        views.apply(ViewChange::Memory(MemoryState {
            moment: Moment::At(45),
            ..Default::default()
        }));
        let text = svg(&SvgInputs {
            loaded: &loaded,
            views: &views,
            comparison: None,
            chart: None,
            colouring: Colouring::default(),
            width: Some(600.0),
        })
        .expect("an SVG");
        assert!(text.starts_with("<svg") && text.contains(r#"width="600""#));
        assert!(text.contains("peak 180 B in 3 blocks"));
    }
}
