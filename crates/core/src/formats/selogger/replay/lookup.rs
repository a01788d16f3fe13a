//! The static files indexed for the replay's per-event lookups: data ids,
//! methods and their display names, CALL_RETURN → CALL links, and the
//! name and fixed details of the spans each METHOD_ENTRY or CALL opens.

use crate::fast_hash::FastMap;
use crate::formats::selogger::names::method_names;
use crate::formats::selogger::objects::Objects;
use crate::formats::selogger::signature::{dotted, readable_signature};
use crate::formats::selogger::statics::{DataInfo, EventKind, MethodInfo};
use crate::model::{StrId, TraceBuilder};

/// The static files, ready for lookups.
pub struct Statics {
    pub methods: Vec<Option<MethodInfo>>,
    pub data: Vec<Option<DataInfo>>,
    pub objects: Objects,
    /// Display name of each method, by method id.
    names: Vec<Option<String>>,
    /// CALL_RETURN data id → its CALL's data id.
    call_of_return: FastMap<u32, u32>,
    /// Span name and fixed details of the spans each METHOD_ENTRY or CALL
    /// data id opens, made on first use; indexed by data id (dense, bounded
    /// by dataids.txt), so the per-event lookup needs no hashing.
    spans: Vec<Option<SpanStatics>>,
    /// `param 0`, `param 1`, … interned.
    param_keys: Vec<StrId>,
    /// Smallest source line of each method's rows (0.4 gives METHOD_ENTRY line 0).
    first_line: FastMap<u32, i64>,
}

/// What every span opened by one data id gets, whatever the event's value.
pub(super) struct SpanStatics {
    pub name: StrId,
    /// Interned key and value pairs, in the order they are shown (the same
    /// for every span of the data id: kept as [`crate::model::Value::Fixed`]).
    pub fields: Vec<(StrId, StrId)>,
    /// The `line` detail.
    pub line: Option<i64>,
}

impl Statics {
    /// Indexes the parsed static files.
    pub fn new(
        methods: Vec<Option<MethodInfo>>,
        data: Vec<Option<DataInfo>>,
        objects: Objects,
    ) -> Self {
        let call_of_return = link_call_returns(&data);
        let mut first_line: FastMap<u32, i64> = FastMap::default();
        for d in data.iter().flatten().filter(|d| d.line > 0) {
            let line = first_line.entry(d.method).or_insert(d.line);
            *line = (*line).min(d.line);
        }
        Statics {
            first_line,
            names: method_names(&methods),
            methods,
            data,
            objects,
            call_of_return,
            spans: Vec::new(),
            param_keys: Vec::new(),
        }
    }

    pub(super) fn data(&self, id: i64) -> Option<&DataInfo> {
        self.data.get(usize::try_from(id).ok()?)?.as_ref()
    }

    fn method(&self, id: u32) -> Option<&MethodInfo> {
        self.methods.get(id as usize)?.as_ref()
    }

    /// The CALL data id that CALL_RETURN data id `id` returns from.
    pub(super) fn call_of_return(&self, id: u32) -> Option<u32> {
        self.call_of_return.get(&id).copied()
    }

    /// The display name of method `id` (`method #id` when methods.txt lacks it).
    fn method_name(&self, id: u32) -> String {
        match self.names.get(id as usize) {
            Some(Some(name)) => name.clone(),
            _ => format!("method #{id}"),
        }
    }

    /// The span statics of data id `id` (a METHOD_ENTRY or CALL row), made
    /// on first use.
    pub(super) fn span_statics(
        &mut self,
        builder: &mut TraceBuilder,
        id: usize,
        info: &DataInfo,
    ) -> Option<&SpanStatics> {
        if self.spans.get(id).is_none_or(Option::is_none) {
            let made = if info.kind == EventKind::Call {
                self.call_statics(builder, info)
            } else {
                self.method_statics(builder, info)
            };
            if self.spans.len() <= id {
                self.spans.resize_with(id + 1, || None);
            }
            if let Some(slot) = self.spans.get_mut(id) {
                *slot = Some(made);
            }
        }
        self.spans.get(id)?.as_ref()
    }

    /// A method span: class, method, signature, descriptor, source; the
    /// entry's line, or the method's first line.
    fn method_statics(&self, builder: &mut TraceBuilder, info: &DataInfo) -> SpanStatics {
        let name = builder.intern(&self.method_name(info.method));
        let mut fields = Vec::new();
        if let Some(m) = self.method(info.method) {
            let mut texts = vec![
                ("class", m.class.clone()),
                ("method", m.name.clone()),
                ("signature", readable_signature(&m.class, &m.name, &m.desc)),
                ("descriptor", m.desc.clone()),
            ];
            if !m.source.is_empty() {
                texts.push(("source", m.source.clone()));
            }
            fields = texts
                .iter()
                .map(|(k, v)| (builder.intern(k), builder.intern(v)))
                .collect();
        }
        let line = if info.line > 0 {
            Some(info.line)
        } else {
            self.first_line.get(&info.method).copied()
        };
        SpanStatics { name, fields, line }
    }

    /// A call-site span: `call Owner.name`, its descriptor and line.
    fn call_statics(&self, builder: &mut TraceBuilder, info: &DataInfo) -> SpanStatics {
        let owner = info.attribute("owner").map(dotted).unwrap_or_default();
        let callee = info.attribute("name").unwrap_or("?");
        let name = if owner.is_empty() {
            format!("call {callee}")
        } else {
            format!("call {owner}.{callee}")
        };
        let name = builder.intern(&name);
        let fields = info
            .attribute("desc")
            .map(|desc| (builder.intern("descriptor"), builder.intern(desc)))
            .into_iter()
            .collect();
        SpanStatics {
            name,
            fields,
            line: (info.line > 0).then_some(info.line),
        }
    }

    /// The key `param N`.
    pub(super) fn param_key(&mut self, builder: &mut TraceBuilder, n: u32) -> StrId {
        loop {
            if let Some(&key) = self.param_keys.get(n as usize) {
                return key;
            }
            let key = builder.intern(&format!("param {}", self.param_keys.len()));
            self.param_keys.push(key);
        }
    }
}

/// CALL_RETURN → CALL: 0.4 names the CALL in `CallParent`; later versions
/// allocate CALL, its CALL_PARAMs and CALL_RETURN consecutively.
fn link_call_returns(data: &[Option<DataInfo>]) -> FastMap<u32, u32> {
    let mut links = FastMap::default();
    for (id, info) in data.iter().enumerate() {
        let Some(info) = info else { continue };
        if info.kind != EventKind::CallReturn {
            continue;
        }
        let parent = info
            .attribute("callparent")
            .and_then(|p| p.parse::<u32>().ok());
        let found = parent.or_else(|| {
            let mut at = id;
            while at > 0 {
                at -= 1;
                match data.get(at)?.as_ref()? {
                    d if d.kind == EventKind::CallParam && d.method == info.method => continue,
                    d if d.kind == EventKind::Call && d.method == info.method => {
                        return u32::try_from(at).ok()
                    }
                    _ => return None,
                }
            }
            None
        });
        if let Some(call) = found {
            links.insert(id as u32, call);
        }
    }
    links
}
