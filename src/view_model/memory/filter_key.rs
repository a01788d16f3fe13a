//! The Memory view's filter as part of a flame-graph source key: small,
//! `Copy` and hashable (the function named by "through" as the trace's
//! string id), written as `:size=a,b:time=a,b:index=a,b:ctx=m:through=id`
//! after `mem:<resource>:<when>:<weighting>`, so the flame graph of "live at
//! the peak" weighs the blocks the view's table lists.

use flamedrop_core::analysis::memory::MemoryFilter;
use flamedrop_core::model::{StrId, Trace};

/// A function name the trace does not have: its filter keeps nothing.
const NO_SUCH_NAME: StrId = StrId::MAX;

/// [`MemoryFilter`] with the function as a string id.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FilterKey {
    pub size: Option<(u64, u64)>,
    pub time: Option<(i64, i64)>,
    pub index: Option<(u64, u64)>,
    pub context: Option<u32>,
    pub through: Option<StrId>,
}

impl FilterKey {
    /// The key of `filter` over `trace`'s names.
    pub fn of(trace: &Trace, filter: &MemoryFilter) -> FilterKey {
        FilterKey {
            size: filter.size,
            time: filter.time,
            index: filter.index,
            context: filter.context,
            through: filter
                .through
                .as_deref()
                .map(|name| trace.strings.find(name).unwrap_or(NO_SUCH_NAME)),
        }
    }

    /// The filter again.
    pub fn filter(&self, trace: &Trace) -> MemoryFilter {
        MemoryFilter {
            size: self.size,
            time: self.time,
            index: self.index,
            context: self.context,
            through: self.through.map(|id| match id {
                // A name no frame has (the empty string is not a frame's).
                NO_SUCH_NAME => String::new(),
                id => trace.str(id).to_owned(),
            }),
        }
    }

    /// True when it keeps everything.
    pub fn is_empty(&self) -> bool {
        *self == FilterKey::default()
    }

    /// The text form: one `:name=value` part per bound set.
    pub fn name(&self) -> String {
        let mut out = String::new();
        if let Some((a, b)) = self.size {
            out.push_str(&format!(":size={a},{b}"));
        }
        if let Some((a, b)) = self.time {
            out.push_str(&format!(":time={a},{b}"));
        }
        if let Some((a, b)) = self.index {
            out.push_str(&format!(":index={a},{b}"));
        }
        if let Some(m) = self.context {
            out.push_str(&format!(":ctx={m}"));
        }
        if let Some(id) = self.through {
            out.push_str(&format!(":through={id}"));
        }
        out
    }

    /// Reads the parts [`FilterKey::name`] writes (without their colons).
    pub fn parse<'a>(parts: impl Iterator<Item = &'a str>) -> Option<FilterKey> {
        fn pair<T: std::str::FromStr>(v: &str) -> Option<(T, T)> {
            let (a, b) = v.split_once(',')?;
            Some((a.parse().ok()?, b.parse().ok()?))
        }
        let mut key = FilterKey::default();
        for part in parts {
            let (name, value) = part.split_once('=')?;
            match name {
                "size" => key.size = Some(pair(value)?),
                "time" => key.time = Some(pair(value)?),
                "index" => key.index = Some(pair(value)?),
                "ctx" => key.context = Some(value.parse().ok()?),
                "through" => key.through = Some(value.parse().ok()?),
                _ => return None,
            }
        }
        Some(key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flamedrop_core::model::{Format, TimeUnit, TraceBuilder};

    #[test]
    fn the_key_keeps_the_filter() {
        let mut b = TraceBuilder::new(Format::SpRtrace, TimeUnit::Ns);
        b.intern("main");
        let trace = b.finish();
        let filter = MemoryFilter {
            size: Some((16, u64::MAX)),
            time: Some((-5, 10)),
            index: Some((1, 2)),
            context: Some(3),
            through: Some("main".to_owned()),
        };
        let key = FilterKey::of(&trace, &filter);
        assert_eq!(key.filter(&trace), filter);
        let text = key.name();
        assert_eq!(FilterKey::parse(text.split(':').skip(1)), Some(key));
        assert!(FilterKey::default().is_empty() && FilterKey::default().name().is_empty());
        // A name the trace lacks keeps nothing rather than everything.
        let absent = MemoryFilter {
            through: Some("nowhere".to_owned()),
            ..Default::default()
        };
        let lost = FilterKey::of(&trace, &absent).filter(&trace);
        assert_eq!(lost.through.as_deref(), Some(""));
        assert_eq!(FilterKey::parse(["size=1"].into_iter()), None);
    }
}
