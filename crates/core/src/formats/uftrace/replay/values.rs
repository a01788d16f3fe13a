//! Argument and return-value text: the bytes after a call or return record,
//! split by the function's specs and printed the way `uftrace replay` does.

use super::{RecordingState, TaskStream};
use crate::formats::uftrace::argdata::{find_enum, format_value, split_block, ValueContext};
use crate::formats::uftrace::argspec::ArgSpec;
use crate::formats::uftrace::resolve::Resolver;

/// Formatting context for one task's values.
struct TaskValues<'a> {
    resolver: &'a mut Resolver,
    enums: &'a [String],
    tid: &'a str,
    time: i64,
}

impl ValueContext for TaskValues<'_> {
    fn symbol_at(&mut self, addr: u64) -> Option<String> {
        let space = self.resolver.space_for(self.tid, self.time);
        let resolved = self.resolver.resolve_in(space, self.time, addr);
        resolved.symbol.map(|_| resolved.name)
    }
    fn enum_definition(&self, name: &str) -> Option<String> {
        find_enum(self.enums.iter().map(String::as_str), name)
    }
}

impl TaskStream {
    /// The values in `extra` as `uftrace replay` prints them, comma separated.
    pub(super) fn values(
        &self,
        extra: &[u8],
        specs: &[ArgSpec],
        time: i64,
        rec: &mut RecordingState,
    ) -> String {
        let Some((_, raw)) = split_block(extra, specs, rec.info.big_endian) else {
            return String::new();
        };
        let mut cx = TaskValues {
            resolver: &mut rec.resolver,
            enums: &rec.enum_sources,
            tid: &self.tid,
            time,
        };
        raw.iter()
            .zip(specs)
            .map(|(value, spec)| format_value(value, spec, &mut cx))
            .collect::<Vec<_>>()
            .join(", ")
    }
}
