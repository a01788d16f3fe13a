//! The timeline's lane arrangement: which lanes (thread lanes and counter
//! tracks) are hidden and in which order they are stacked. It is part of
//! the [`super::ViewState`], so it goes into the URL fragment and a reload of
//! the same file restores it. Thread lanes are named by thread id (stable
//! across reloads of the same trace), counter tracks by their index.
//!
//! Thread lanes always come before counter tracks; a move only passes lanes
//! of the same kind. Hiding a lane changes only what the timeline draws.

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
}
