//! Which resource (library, module, class) a function belongs to, for
//! "collapse resource", from what each decoder records:
//!
//! - a name `module+0xoffset` (uftrace and SWAP addresses without a symbol,
//!   every sp-rtrace frame without an ELF file) belongs to `module`;
//! - Scaler: the span's `library` detail field (the ELF image of the call);
//!   a function without a symbol, named `file<N>/…` after its image id,
//!   belongs to `file<N>`;
//! - SELogger: a method span's `class` detail field; a call-site span
//!   `call pkg.Class.method` belongs to `pkg.Class`; in the frequency sets'
//!   stacks (class › method › location) a root frame is a class, which is
//!   its own resource, and a method frame belongs to its class.
//!
//! - uftrace: the decoder's `symbols` table (each symbol of the recording's
//!   `.sym` files with its module).

use crate::model::{Format, Spans, StrId, Trace, NO_PARENT};

/// The resource of every string id of a trace (most have none).
pub(super) struct Resources {
    of: Vec<Option<StrId>>,
    /// Resource names not yet in the trace's strings, by their placeholder
    /// id (past the table's end) until [`Resources::intern`].
    pending: Vec<String>,
    first_pending: u32,
}

impl Resources {
    /// Every name's resource, looked up once; `spans` are the threads'
    /// spans (they may be held apart from `trace` while it is narrowed).
    pub(super) fn build(trace: &Trace, spans: &[&Spans]) -> Resources {
        let strings = trace.strings.len();
        let mut out = Resources {
            of: vec![None; strings],
            pending: Vec::new(),
            first_pending: strings as u32,
        };
        for id in 0..strings as u32 {
            if let Some(r) = from_name(trace.format, trace.str(id)) {
                let r = out.id_of(trace, &r);
                out.set(id, r);
            }
        }
        if let Some(key) = detail_key(trace.format) {
            out.read_details(trace, spans, key);
        }
        if trace.format == Some(Format::Selogger) {
            out.read_selogger_stacks(trace);
        }
        if trace.format == Some(Format::Uftrace) {
            out.read_symbols_table(trace);
        }
        out
    }

    /// The resource of name `id`, as an id (possibly a placeholder before
    /// [`Resources::intern`]).
    pub(super) fn of(&self, id: StrId) -> Option<StrId> {
        self.of.get(id as usize).copied().flatten()
    }

    /// The id of resource text `name`, if some function belongs to it.
    pub(super) fn find(&self, trace: &Trace, name: &str) -> Option<StrId> {
        let id = trace.strings.find(name).or_else(|| {
            let at = self.pending.iter().position(|p| p == name)?;
            Some(self.first_pending + at as u32)
        })?;
        self.of.contains(&Some(id)).then_some(id)
    }

    /// Interns resource `id` into the trace's strings (a placeholder becomes
    /// a real string id); gives the real id.
    pub(super) fn intern(&self, trace: &mut Trace, id: StrId) -> StrId {
        match id.checked_sub(self.first_pending) {
            Some(at) => match self.pending.get(at as usize) {
                Some(name) => trace.strings.intern(name),
                None => id,
            },
            None => id,
        }
    }

    /// The text of name `id`'s resource (pending or interned).
    fn text_of(&self, trace: &Trace, id: StrId) -> Option<String> {
        let r = self.of(id)?;
        Some(match r.checked_sub(self.first_pending) {
            Some(at) => self.pending.get(at as usize)?.clone(),
            None => trace.str(r).to_owned(),
        })
    }

    fn set(&mut self, id: StrId, resource: StrId) {
        if let Some(slot) = self.of.get_mut(id as usize) {
            *slot = Some(resource);
        }
    }

    fn id_of(&mut self, trace: &Trace, name: &str) -> StrId {
        if let Some(id) = trace.strings.find(name) {
            return id;
        }
        match self.pending.iter().position(|p| p == name) {
            Some(at) => self.first_pending + at as u32,
            None => {
                self.pending.push(name.to_owned());
                self.first_pending + (self.pending.len() - 1) as u32
            }
        }
    }

    /// Per name, the `key` field of its first span that has details.
    /// uftrace's `symbols` table: (function, module) rows.
    fn read_symbols_table(&mut self, trace: &Trace) {
        let Some(table) = trace.tables.iter().find(|t| t.id == "symbols") else {
            return;
        };
        for row in &table.rows {
            let (Some(function), Some(module)) = (row.first(), row.get(1)) else {
                continue;
            };
            if let Some(id) = trace.strings.find(function) {
                let r = self.id_of(trace, module);
                self.set(id, r);
            }
        }
    }

    fn read_details(&mut self, trace: &Trace, threads: &[&Spans], key: &str) {
        let mut checked = vec![false; self.of.len()];
        for spans in threads {
            if spans.details.is_empty() {
                continue;
            }
            for (i, &name) in spans.name.iter().enumerate() {
                let Some(seen) = checked.get_mut(name as usize) else {
                    continue;
                };
                if *seen || spans.details.groups_of(i as u32).is_empty() {
                    continue;
                }
                *seen = true;
                let fields = spans.details_of(i as u32, &trace.strings);
                if let Some(f) = fields.iter().find(|f| f.key == key) {
                    let r = self.id_of(trace, &f.value);
                    self.set(name, r);
                }
            }
        }
    }

    /// SELogger's frequency stacks: class › method › location.
    fn read_selogger_stacks(&mut self, trace: &Trace) {
        let stacks = &trace.stacks;
        for (&frame, &parent) in stacks.frame.iter().zip(&stacks.parent) {
            if parent == NO_PARENT {
                self.set(frame, frame);
            } else if stacks.parent.get(parent as usize) == Some(&NO_PARENT) {
                if let Some(&class) = stacks.frame.get(parent as usize) {
                    self.set(frame, class);
                }
            }
        }
    }
}

/// The detail field that names a span's resource in `format`.
fn detail_key(format: Option<Format>) -> Option<&'static str> {
    match format {
        Some(Format::Scaler) => Some("library"),
        Some(Format::Selogger) => Some("class"),
        _ => None,
    }
}

/// The resource a name itself tells: `module+0xoffset`, or SELogger's
/// `call pkg.Class.method`.
fn from_name(format: Option<Format>, name: &str) -> Option<String> {
    if let Some((module, offset)) = name.rsplit_once("+0x") {
        if !module.is_empty() && !offset.is_empty() && offset.bytes().all(|b| b.is_ascii_hexdigit())
        {
            return Some(module.to_owned());
        }
    }
    if format == Some(Format::Scaler) {
        let (image, _) = name.split_once('/')?;
        let number = image.strip_prefix("file")?;
        return (!number.is_empty() && number.bytes().all(|b| b.is_ascii_digit() || b == b'?'))
            .then(|| image.to_owned());
    }
    if format == Some(Format::Selogger) {
        let method = name.strip_prefix("call ")?;
        let (class, _) = method.split('(').next()?.rsplit_once('.')?;
        return (!class.is_empty() && !class.contains(char::is_whitespace))
            .then(|| class.to_owned());
    }
    None
}

/// The resource `function` belongs to in `trace` (uftrace / SWAP /
/// sp-rtrace module, Scaler library, SELogger class), or `None` when the
/// trace does not tell.
pub fn resource_of(trace: &Trace, function: &str) -> Option<String> {
    let id = trace.strings.find(function)?;
    let spans: Vec<&Spans> = trace.threads.iter().map(|t| &t.spans).collect();
    let resources = Resources::build(trace, &spans);
    resources.text_of(trace, id)
}

/// The resource of every string id of `trace` (index = string id; `None`
/// where the trace does not tell), built once for an analysis that asks
/// about many names (`analysis::components`).
pub fn resources_by_name(trace: &Trace) -> Vec<Option<String>> {
    let spans: Vec<&Spans> = trace.threads.iter().map(|t| &t.spans).collect();
    let resources = Resources::build(trace, &spans);
    (0..trace.strings.len() as u32)
        .map(|id| resources.text_of(trace, id))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_tell_their_module() {
        assert_eq!(
            from_name(None, "libc.so.6+0x1a2b"),
            Some("libc.so.6".into())
        );
        assert_eq!(from_name(None, "a+b+0x10"), Some("a+b".into()));
        assert_eq!(from_name(None, "main"), None);
        assert_eq!(from_name(None, "+0x10"), None);
        assert_eq!(from_name(None, "x+0xzz"), None);
        let s = Some(Format::Selogger);
        assert_eq!(
            from_name(s, "call demo.Bank.deposit"),
            Some("demo.Bank".into())
        );
        assert_eq!(from_name(s, "call a.B.m(int) : void"), Some("a.B".into()));
        assert_eq!(from_name(s, "demo.Bank.deposit"), None);
        assert_eq!(from_name(None, "call demo.Bank.deposit"), None);
        let scaler = Some(Format::Scaler);
        assert_eq!(from_name(scaler, "file21/func?"), Some("file21".into()));
        assert_eq!(from_name(scaler, "file3/0x1a"), Some("file3".into()));
        assert_eq!(from_name(scaler, "printf"), None);
    }
}
