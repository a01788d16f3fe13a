//! What the page shows besides the trace itself: which view is open, which
//! data the aggregated views draw ([`SourceKey`]), the picked function, the
//! search and the time range — and how that state is written to and read
//! from the URL fragment ([`ViewState::to_fragment`]), so a reload restores
//! it. Trace content never goes into the URL: only names of views, indices
//! of sources, one function name (what the user picked or typed) and numbers.
//!
//! No web types here: it is tested natively.

pub mod diff;
pub mod lanes;
pub mod source;
pub mod svg;
pub mod table;
pub mod timeline_svg;

pub use lanes::{LaneKey, LaneLayout};
pub use source::SourceKey;

/// The views of the header's switcher.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum View {
    /// The time-ordered flame chart, one lane per thread.
    #[default]
    Timeline,
    /// The aggregated, left-heavy flame graph.
    FlameGraph,
    /// Callers and callees of one function.
    Sandwich,
    /// The call-tree table, top-down or bottom-up.
    CallTree,
    /// Two traces compared: differential flame graph and table of changes
    /// (offered only while a comparison trace is open).
    Diff,
}

impl View {
    /// Every view, in switcher order.
    pub const ALL: [View; 4] = [
        View::Timeline,
        View::FlameGraph,
        View::Sandwich,
        View::CallTree,
    ];

    /// The name used in `data-view`, ids, the URL and `flamedrop.view()`.
    pub fn name(self) -> &'static str {
        match self {
            View::Timeline => "timeline",
            View::FlameGraph => "flamegraph",
            View::Sandwich => "sandwich",
            View::CallTree => "calltree",
            View::Diff => "diff",
        }
    }

    /// The switcher's label.
    pub fn label(self) -> &'static str {
        match self {
            View::Timeline => "Timeline",
            View::FlameGraph => "Flame graph",
            View::Sandwich => "Sandwich",
            View::CallTree => "Call tree",
            View::Diff => "Diff",
        }
    }

    /// The view called `name`.
    pub fn parse(name: &str) -> Option<View> {
        View::ALL
            .into_iter()
            .chain([View::Diff])
            .find(|v| v.name() == name)
    }
}

/// Everything about the views that a reload restores.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ViewState {
    pub view: View,
    pub source: SourceKey,
    /// The function the sandwich shows.
    pub function: Option<String>,
    /// The search box's text.
    pub search: String,
    /// The time range the aggregated views are limited to (trace units,
    /// absolute timestamps).
    pub range: Option<(i64, i64)>,
    /// The call-tree table shows the bottom-up tree.
    pub inverted: bool,
    /// The timeline's lane order and hidden lanes.
    pub lanes: LaneLayout,
}

/// One change to the [`ViewState`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ViewChange {
    View(View),
    Source(SourceKey),
    Function(Option<String>),
    Search(String),
    Range(Option<(i64, i64)>),
    Inverted(bool),
    Lanes(LaneLayout),
}

impl ViewState {
    /// Applies a change; picking a function also opens the sandwich.
    pub fn apply(&mut self, change: ViewChange) {
        match change {
            ViewChange::View(v) => self.view = v,
            ViewChange::Source(s) => self.source = s,
            ViewChange::Function(f) => self.function = f,
            ViewChange::Search(q) => self.search = q,
            ViewChange::Range(r) => self.range = r.filter(|(a, b)| a < b),
            ViewChange::Inverted(i) => self.inverted = i,
            ViewChange::Lanes(l) => self.lanes = l,
        }
    }

    /// The state as a URL fragment body (`view=sandwich&fn=main&q=mutex`),
    /// leaving out what is at its default.
    pub fn to_fragment(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        if self.view != View::Timeline {
            parts.push(format!("view={}", self.view.name()));
        }
        if self.source != SourceKey::default() {
            parts.push(format!("source={}", self.source.name()));
        }
        if let Some(f) = &self.function {
            parts.push(format!("fn={}", encode(f)));
        }
        if !self.search.is_empty() {
            parts.push(format!("q={}", encode(&self.search)));
        }
        if let Some((a, b)) = self.range {
            parts.push(format!("range={a},{b}"));
        }
        if self.inverted {
            parts.push("inverted=1".to_owned());
        }
        parts.extend(self.lanes.fragment_parts(encode));
        parts.join("&")
    }

    /// Reads a fragment (with or without its `#`); unknown or malformed
    /// parts are ignored.
    pub fn from_fragment(fragment: &str) -> ViewState {
        let mut state = ViewState::default();
        for part in fragment.trim_start_matches('#').split('&') {
            let Some((key, raw)) = part.split_once('=') else {
                continue;
            };
            let value = decode(raw);
            match key {
                "view" => state.view = View::parse(&value).unwrap_or_default(),
                "source" => state.source = SourceKey::parse(&value).unwrap_or_default(),
                "fn" if !value.is_empty() => state.function = Some(value),
                "q" => state.search = value,
                "range" => {
                    state.range = value.split_once(',').and_then(|(a, b)| {
                        let (a, b) = (a.parse().ok()?, b.parse().ok()?);
                        (a < b).then_some((a, b))
                    })
                }
                "inverted" => state.inverted = value == "1",
                // Each item is decoded on its own: an id may hold a comma.
                "lanes" => state.lanes.order = LaneLayout::parse_list(raw, decode),
                "hide" => state.lanes.hidden = LaneLayout::parse_list(raw, decode),
                _ => {}
            }
        }
        state
    }
}

/// Percent-encodes everything but unreserved characters.
fn encode(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Undoes [`encode`] (and `+` as a space); bad escapes are kept as written.
fn decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(v)) => {
                out.push(v);
                i += 3;
            }
            (b'+', _) => {
                out.push(b' ');
                i += 1;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_survives_the_fragment() {
        let state = ViewState {
            view: View::Sandwich,
            source: SourceKey::Thread(2),
            function: Some("std::vector<int>::push_back & co".to_owned()),
            search: "/^pthread_/".to_owned(),
            range: Some((100, 2000)),
            inverted: true,
            lanes: LaneLayout {
                order: vec![LaneKey::Thread("a,b &c".to_owned()), LaneKey::Counter(3)],
                hidden: vec![LaneKey::Thread("7".to_owned())],
            },
        };
        let fragment = state.to_fragment();
        assert!(!fragment.contains(' ') && !fragment.contains('<'));
        assert_eq!(ViewState::from_fragment(&format!("#{fragment}")), state);
    }

    #[test]
    fn defaults_write_nothing_and_junk_is_ignored() {
        assert_eq!(ViewState::default().to_fragment(), "");
        let state = ViewState::from_fragment("#view=nope&range=9,1&x&q=%zz");
        assert_eq!(state.view, View::Timeline);
        assert_eq!(state.range, None);
        assert_eq!(state.search, "%zz");
    }
}
