//! The timeline's lane arrangement: which lanes (thread lanes and counter
//! tracks) are hidden and in which order they are stacked. It is part of
//! the [`ViewState`](crate::view_model::ViewState), so it goes into the URL
//! fragment and a reload of the same file restores it. Thread lanes are named by thread id (stable
//! across reloads of the same trace), counter tracks by their index.
//!
//! Thread lanes always come before counter tracks; a move only passes lanes
//! of the same kind. Hiding a lane changes only what the timeline draws.
//!
//! The timeline's lane editing lives here too: the lanes of a trace
//! ([`lane_keys`]), the tracks a layout shows ([`LaneLayout::shown`]), and the
//! layout after a click on a header button or a lane dropped on another.

use crate::timeline::{HeaderButton, Track};
use flamedrop_core::model::Trace;

/// One lane of the timeline.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum LaneKey {
    /// A thread's lane, by thread id.
    Thread(String),
    /// A counter track, by index into the trace's counters.
    Counter(usize),
}

impl LaneKey {
    /// The key as written in the fragment: `t<id>` or `c<index>`.
    pub fn name(&self) -> String {
        match self {
            LaneKey::Thread(id) => format!("t{id}"),
            LaneKey::Counter(i) => format!("c{i}"),
        }
    }

    /// Reads [`LaneKey::name`].
    pub fn parse(name: &str) -> Option<LaneKey> {
        if let Some(id) = name.strip_prefix('t') {
            return Some(LaneKey::Thread(id.to_owned()));
        }
        name.strip_prefix('c')?.parse().ok().map(LaneKey::Counter)
    }

    fn is_counter(&self) -> bool {
        matches!(self, LaneKey::Counter(_))
    }
}

/// The user's order and hidden lanes; empty means the trace's own order,
/// everything shown.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LaneLayout {
    /// Lanes in the chosen order (lanes not listed follow in trace order).
    pub order: Vec<LaneKey>,
    pub hidden: Vec<LaneKey>,
}

impl LaneLayout {
    /// True when nothing was changed.
    pub fn is_default(&self) -> bool {
        self.order.is_empty() && self.hidden.is_empty()
    }

    /// Every lane of `all` (the trace's own order) in the chosen order:
    /// thread lanes first, then counter tracks. Keys not in `all` are ignored.
    pub fn arranged(&self, all: &[LaneKey]) -> Vec<LaneKey> {
        let mut out: Vec<LaneKey> = Vec::with_capacity(all.len());
        for key in self.order.iter().chain(all) {
            if all.contains(key) && !out.contains(key) {
                out.push(key.clone());
            }
        }
        // Stable: thread lanes keep their order before the counter tracks.
        out.sort_by_key(LaneKey::is_counter);
        out
    }

    /// True when `key` is hidden.
    pub fn is_hidden(&self, key: &LaneKey) -> bool {
        self.hidden.contains(key)
    }

    /// Hides or shows `key`.
    pub fn set_hidden(&mut self, key: &LaneKey, hidden: bool) {
        self.hidden.retain(|k| k != key);
        if hidden {
            self.hidden.push(key.clone());
        }
    }

    /// Moves `key` by `delta` places among the lanes of its kind in `all`.
    pub fn move_by(&mut self, all: &[LaneKey], key: &LaneKey, delta: isize) {
        let arranged = self.arranged(all);
        let Some(from) = arranged.iter().position(|k| k == key) else {
            return;
        };
        let to = from.saturating_add_signed(delta).min(arranged.len() - 1);
        self.move_to(all, key, to);
    }

    /// Moves `key` to place `to` of the arranged lanes (kept among its kind).
    pub fn move_to(&mut self, all: &[LaneKey], key: &LaneKey, to: usize) {
        let mut arranged = self.arranged(all);
        let Some(from) = arranged.iter().position(|k| k == key) else {
            return;
        };
        let moved = arranged.remove(from);
        let same_kind: Vec<usize> = (0..=arranged.len())
            .filter(|&i| {
                let before = i.checked_sub(1).and_then(|j| arranged.get(j));
                let after = arranged.get(i);
                // A place is of the lane's kind when a neighbour is.
                [before, after]
                    .into_iter()
                    .flatten()
                    .any(|k| k.is_counter() == moved.is_counter())
                    || arranged.is_empty()
            })
            .collect();
        let place = same_kind
            .iter()
            .copied()
            .min_by_key(|&i| i.abs_diff(to))
            .unwrap_or(from);
        arranged.insert(place, moved);
        self.order = if arranged.as_slice() == all {
            Vec::new()
        } else {
            arranged
        };
    }

    /// Everything shown, in the trace's order.
    pub fn reset(&mut self) {
        *self = LaneLayout::default();
    }

    /// The fragment parts (`lanes=…`, `hide=…`) for a non-default layout.
    pub fn fragment_parts(&self, encode: impl Fn(&str) -> String) -> Vec<String> {
        let list = |keys: &[LaneKey]| {
            keys.iter()
                .map(|k| encode(&k.name()))
                .collect::<Vec<_>>()
                .join(",")
        };
        let mut parts = Vec::new();
        if !self.order.is_empty() {
            parts.push(format!("lanes={}", list(&self.order)));
        }
        if !self.hidden.is_empty() {
            parts.push(format!("hide={}", list(&self.hidden)));
        }
        parts
    }

    /// Reads one comma-separated list of a fragment part (already split
    /// from its key, each item still percent-encoded).
    pub fn parse_list(value: &str, decode: impl Fn(&str) -> String) -> Vec<LaneKey> {
        value
            .split(',')
            .filter(|s| !s.is_empty())
            .filter_map(|s| LaneKey::parse(&decode(s)))
            .collect()
    }
}

/// Every lane's key and title (threads, then counter tracks, in trace
/// order), given the thread lanes' titles by thread index. A thread id that
/// two threads share gets the thread index appended, so no lane is lost.
pub fn lane_keys(trace: &Trace, titles: &[String]) -> Vec<(LaneKey, String)> {
    let mut all: Vec<(LaneKey, String)> =
        Vec::with_capacity(trace.threads.len() + trace.counters.len());
    let mut ids: Vec<&str> = trace.threads.iter().map(|t| t.id.as_str()).collect();
    ids.sort_unstable();
    for (t, thread) in trace.threads.iter().enumerate() {
        let twice = ids.binary_search(&thread.id.as_str()).is_ok_and(|i| {
            ids.get(i + 1) == Some(&thread.id.as_str())
                || (i > 0 && ids.get(i - 1) == Some(&thread.id.as_str()))
        });
        let key = if twice {
            LaneKey::Thread(format!("{}#{t}", thread.id))
        } else {
            LaneKey::Thread(thread.id.clone())
        };
        all.push((key, titles.get(t).cloned().unwrap_or_default()));
    }
    for (c, counter) in trace.counters.iter().enumerate() {
        all.push((
            LaneKey::Counter(c),
            format!("{} ({})", counter.name, counter.unit),
        ));
    }
    all
}

/// The keys of [`lane_keys`]' list.
fn keys(all: &[(LaneKey, String)]) -> Vec<LaneKey> {
    all.iter().map(|(k, _)| k.clone()).collect()
}

/// The key of a track, given [`lane_keys`]' list (thread `t`'s lane is its
/// entry `t`).
fn key_of(all: &[(LaneKey, String)], track: Track) -> Option<LaneKey> {
    match track {
        Track::Thread(t) => all.get(t).map(|(k, _)| k.clone()),
        Track::Counter(c) => Some(LaneKey::Counter(c)),
    }
}

impl LaneLayout {
    /// The thread lanes (thread indices) and counter tracks (counter
    /// indices) this layout shows, in its order, of [`lane_keys`]' list.
    pub fn shown(&self, all: &[(LaneKey, String)]) -> (Vec<usize>, Vec<usize>) {
        let (mut threads, mut counters) = (Vec::new(), Vec::new());
        for key in self.arranged(&keys(all)) {
            if self.is_hidden(&key) {
                continue;
            }
            match key {
                LaneKey::Counter(c) => counters.push(c),
                thread => threads.extend(all.iter().position(|(k, _)| *k == thread)),
            }
        }
        (threads, counters)
    }

    /// The layout after a click on `track`'s move-up, move-down or hide
    /// button (`None` for a track not in `all`).
    pub fn after_button(
        &self,
        all: &[(LaneKey, String)],
        track: Track,
        button: HeaderButton,
    ) -> Option<LaneLayout> {
        let key = key_of(all, track)?;
        let mut layout = self.clone();
        let keys = keys(all);
        match button {
            HeaderButton::Up => layout.move_by(&keys, &key, -1),
            HeaderButton::Down => layout.move_by(&keys, &key, 1),
            HeaderButton::Hide => layout.set_hidden(&key, true),
        }
        Some(layout)
    }

    /// The layout after `track`, dragged by its header, was dropped on
    /// `target`: it takes that lane's place.
    pub fn after_drop(
        &self,
        all: &[(LaneKey, String)],
        track: Track,
        target: Track,
    ) -> Option<LaneLayout> {
        let (key, target) = (key_of(all, track)?, key_of(all, target)?);
        let mut layout = self.clone();
        let keys = keys(all);
        let to = layout.arranged(&keys).iter().position(|k| *k == target)?;
        layout.move_to(&keys, &key, to);
        Some(layout)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all() -> Vec<LaneKey> {
        vec![
            LaneKey::Thread("1".into()),
            LaneKey::Thread("2".into()),
            LaneKey::Thread("3".into()),
            LaneKey::Counter(0),
            LaneKey::Counter(1),
        ]
    }

    #[test]
    fn moves_stay_among_lanes_of_their_kind() {
        let all = all();
        let mut layout = LaneLayout::default();
        layout.move_by(&all, &LaneKey::Thread("3".into()), -2);
        assert_eq!(layout.arranged(&all)[0], LaneKey::Thread("3".into()));
        // A thread lane cannot pass below the counter tracks.
        layout.move_to(&all, &LaneKey::Thread("3".into()), 4);
        assert_eq!(layout.arranged(&all)[2], LaneKey::Thread("3".into()));
        assert!(layout.order.is_empty(), "back in trace order");
        layout.move_by(&all, &LaneKey::Counter(1), -3);
        assert_eq!(
            layout.arranged(&all)[2..4],
            [LaneKey::Thread("3".into()), LaneKey::Counter(1)]
        );
    }

    #[test]
    fn unknown_keys_are_ignored_and_new_lanes_follow() {
        let layout = LaneLayout {
            order: vec![LaneKey::Thread("9".into()), LaneKey::Thread("2".into())],
            hidden: vec![],
        };
        let arranged = layout.arranged(&all());
        assert_eq!(arranged.len(), 5);
        assert_eq!(arranged[0], LaneKey::Thread("2".into()));
        assert_eq!(arranged[1], LaneKey::Thread("1".into()));
    }

    #[test]
    fn keys_round_trip() {
        for key in all() {
            assert_eq!(LaneKey::parse(&key.name()), Some(key));
        }
        assert_eq!(LaneKey::parse("x1"), None);
        assert_eq!(LaneKey::parse("cz"), None);
    }

    #[test]
    fn hiding_and_reset() {
        let mut layout = LaneLayout::default();
        layout.set_hidden(&LaneKey::Counter(0), true);
        layout.set_hidden(&LaneKey::Counter(0), true);
        assert_eq!(layout.hidden.len(), 1);
        assert!(layout.is_hidden(&LaneKey::Counter(0)));
        layout.set_hidden(&LaneKey::Counter(0), false);
        assert!(layout.is_default());
        layout.set_hidden(&LaneKey::Counter(1), true);
        layout.reset();
        assert!(layout.is_default());
    }

    fn titled() -> Vec<(LaneKey, String)> {
        all().into_iter().map(|k| (k.clone(), k.name())).collect()
    }

    #[test]
    fn threads_sharing_an_id_keep_a_lane_each() {
        use flamedrop_core::model::{Format, TimeUnit, TraceBuilder};
        let mut b = TraceBuilder::new(Format::Uftrace, TimeUnit::Ns);
        let p = b.process("1", "p");
        b.thread(p, "7", "a");
        b.thread(p, "8", "c");
        let mut trace = b.finish();
        // Two threads of one id (the builder itself merges them).
        let twin = trace.threads[0].clone();
        trace.threads.insert(1, twin);
        let titles: Vec<String> = ["A", "B", "C"].map(String::from).to_vec();
        let lanes = lane_keys(&trace, &titles);
        let names: Vec<String> = lanes.iter().map(|(k, _)| k.name()).collect();
        assert_eq!(names, ["t7#0", "t7#1", "t8"]);
        assert_eq!(lanes[2].1, "C");
    }

    #[test]
    fn a_layout_shows_its_lanes_in_order() {
        let all = titled();
        let mut layout = LaneLayout::default();
        assert_eq!(layout.shown(&all), (vec![0, 1, 2], vec![0, 1]));
        layout.set_hidden(&LaneKey::Thread("2".into()), true);
        layout.move_by(&keys(&all), &LaneKey::Counter(1), -1);
        assert_eq!(layout.shown(&all), (vec![0, 2], vec![1, 0]));
    }

    #[test]
    fn header_buttons_move_and_hide() {
        let all = titled();
        let layout = LaneLayout::default();
        let up = layout
            .after_button(&all, Track::Thread(1), HeaderButton::Up)
            .unwrap();
        assert_eq!(up.shown(&all).0, [1, 0, 2]);
        let down = layout
            .after_button(&all, Track::Counter(0), HeaderButton::Down)
            .unwrap();
        assert_eq!(down.shown(&all).1, [1, 0]);
        let hidden = layout
            .after_button(&all, Track::Thread(2), HeaderButton::Hide)
            .unwrap();
        assert!(hidden.is_hidden(&LaneKey::Thread("3".into())));
        assert_eq!(
            layout.after_button(&all, Track::Thread(9), HeaderButton::Up),
            None
        );
    }

    #[test]
    fn a_dropped_lane_takes_the_place_of_the_one_under_it() {
        let all = titled();
        let layout = LaneLayout::default();
        let moved = layout
            .after_drop(&all, Track::Thread(2), Track::Thread(0))
            .unwrap();
        assert_eq!(moved.shown(&all).0, [2, 0, 1]);
        // Dropped on a counter track, a thread lane stays among the threads.
        let moved = layout
            .after_drop(&all, Track::Thread(0), Track::Counter(1))
            .unwrap();
        assert_eq!(moved.shown(&all), (vec![1, 2, 0], vec![0, 1]));
        assert_eq!(
            layout.after_drop(&all, Track::Thread(5), Track::Thread(0)),
            None
        );
    }
}
