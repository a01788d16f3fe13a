//! MSG_PROBE_* messages: a marker on the calling thread for every probe,
//! plus memory probes feeding the allocation view (alloc/free matched by
//! address per process), file probes the file-activity table and a file
//! descriptor resource (open/close), custom chart probes a counter track.

use super::super::messages::{Probe, ProbeTail, UiControl};
use super::call_kinds::file_event_name;
use super::texts::Number;
use super::{Build, Lane};
use crate::model::{CounterRef, StrId, ThreadRef, Value as FieldValue};

impl Build {
    /// One probe message: what it does to the model first (allocations,
    /// files, charts), then its marker, whose name is interned before its
    /// fields as the string table has them.
    pub fn probe(&mut self, p: &Probe, time: i64) {
        let t = self.lane(p.pid, p.tid, Lane::Functions);
        self.end_off_cpu(t, time);
        match &p.tail {
            ProbeTail::Memory {
                size,
                api_type,
                address,
            } => self.memory(p, time, *size, *api_type, *address),
            ProbeTail::Resource {
                size,
                fd,
                api_type,
                file_size,
                path,
            } => self.file_probe(p, time, *fd, *api_type, *size, *file_size, path),
            ProbeTail::Custom { name, value, .. } => {
                let c = self.chart(t, name);
                self.b.counter_value(c, time, *value);
            }
            _ => {}
        }
        if !self.thread_data {
            self.b.touch(t, time);
            self.b.count_events(t, 1);
            return;
        }
        let name = self.probe_name(p);
        let mut fields = std::mem::take(&mut self.fields);
        fields.clear();
        self.push_values(&mut fields, &p.args, Some(&p.ret));
        if p.errno != 0 {
            self.push_number(&mut fields, "errno", Number::Decimal, p.errno);
        }
        self.push_number(
            &mut fields,
            "call type",
            Number::Decimal,
            u64::from(p.call_type),
        );
        if p.caller != 0 {
            let key = self.key("caller");
            let caller = self.address_name(p.pid, p.caller);
            fields.push((key, FieldValue::Text(caller)));
        }
        self.probe_fields(&mut fields, &p.tail);
        self.b.instant_with(t, time, name, &fields);
        self.b.count_events(t, 1);
        self.fields = fields;
    }

    /// The marker name of a probe: `kind what: API #id`, interned once per
    /// kind, subtype and API.
    fn probe_name(&mut self, p: &Probe) -> StrId {
        let subtype = match &p.tail {
            ProbeTail::Memory { api_type, .. }
            | ProbeTail::Resource { api_type, .. }
            | ProbeTail::Thread { api_type, .. }
            | ProbeTail::Sync { api_type, .. }
            | ProbeTail::Network { api_type, .. }
            | ProbeTail::Gl { api_type, .. } => *api_type,
            ProbeTail::UiEvent { event_type, .. } => *event_type,
            _ => 0,
        };
        let key = (p.tail.id(), subtype, p.api_id);
        if let Some(&id) = self.probe_names.get(&key) {
            return id;
        }
        let (kind, what) = match &p.tail {
            ProbeTail::Memory { api_type, .. } => ("memory", memory_api(*api_type).to_owned()),
            ProbeTail::UiControl { .. } => ("UI control", String::new()),
            ProbeTail::UiEvent { event_type, .. } => ("UI event", ui_event(*event_type).to_owned()),
            ProbeTail::Resource { api_type, .. } => ("file", file_event_name(*api_type).to_owned()),
            ProbeTail::Lifecycle => ("lifecycle", String::new()),
            ProbeTail::Screenshot { .. } => ("screenshot", String::new()),
            ProbeTail::Scene { .. } => ("scene", String::new()),
            ProbeTail::Thread { api_type, .. } => ("thread", thread_api(*api_type).to_owned()),
            ProbeTail::Custom { .. } => ("custom chart", String::new()),
            ProbeTail::Sync { api_type, .. } => ("sync", sync_api(*api_type).to_owned()),
            ProbeTail::Network { api_type, .. } => ("network", socket_api(*api_type).to_owned()),
            ProbeTail::Gl { api_type, .. } => ("OpenGL", format!("api type {api_type}")),
            ProbeTail::Other { id, .. } => ("probe", format!("id {id:#06x}")),
        };
        let api = format!("API #{}", p.api_id);
        let name = if what.is_empty() {
            format!("{kind}: {api}")
        } else {
            format!("{kind} {what}: {api}")
        };
        let id = self.b.intern(&name);
        self.probe_names.insert(key, id);
        id
    }

    /// The fields of a probe's tail: those of the app's own objects here,
    /// the screen, network and OpenGL ones in [`Build::ui_probe_fields`].
    fn probe_fields(&mut self, fields: &mut Vec<(StrId, FieldValue)>, tail: &ProbeTail) {
        use Number::{Decimal, Hex};
        match tail {
            ProbeTail::Memory { size, address, .. } => {
                self.push_number(fields, "size", Decimal, *size);
                self.push_number(fields, "address", Hex, *address);
            }
            ProbeTail::Resource { size, fd, path, .. } => {
                self.push_number(fields, "fd", Decimal, *fd);
                self.push_text(fields, "path", path);
                self.push_number(fields, "size", Decimal, *size);
            }
            ProbeTail::Lifecycle => {}
            ProbeTail::Thread {
                pthread_id,
                tizen_thread_id,
                thread_type,
                class_name,
                ..
            } => {
                self.push_number(fields, "pthread", Hex, *pthread_id);
                if *tizen_thread_id != 0 {
                    self.push_number(fields, "tizen thread", Hex, *tizen_thread_id);
                }
                self.push_number(fields, "thread type", Decimal, u64::from(*thread_type));
                if !class_name.is_empty() {
                    self.push_text(fields, "class", class_name);
                }
            }
            ProbeTail::Custom {
                handle,
                chart_type,
                name,
                color,
                value,
            } => {
                self.push_text(
                    fields,
                    "chart",
                    &format!("{name} (handle {handle}, type {chart_type}, color {color:#x})"),
                );
                self.push_number(fields, "value", Number::Float, value.to_bits());
            }
            ProbeTail::Sync {
                object, sync_type, ..
            } => {
                self.push_number(fields, "sync object", Hex, *object);
                self.push_number(fields, "sync type", Decimal, u64::from(*sync_type));
            }
            ProbeTail::Other { bytes, .. } => {
                self.push_number(fields, "tail bytes", Decimal, bytes.len() as u64);
            }
            _ => self.ui_probe_fields(fields, tail),
        }
    }

    /// The fields of a UI, scene, screenshot, network or OpenGL probe's tail.
    fn ui_probe_fields(&mut self, fields: &mut Vec<(StrId, FieldValue)>, tail: &ProbeTail) {
        use Number::Decimal;
        match tail {
            ProbeTail::UiControl { parent, child } => {
                let text = |c: &UiControl| format!("{} {} @{:#x}", c.kind, c.name, c.address);
                self.push_text(fields, "parent", &text(parent));
                self.push_text(fields, "child", &text(child));
            }
            ProbeTail::UiEvent {
                detail,
                x,
                y,
                info1,
                info2,
                ..
            } => {
                self.push_text(fields, "position", &format!("{x},{y}"));
                self.push_number(fields, "detail", Decimal, u64::from(*detail));
                self.push_text(fields, "info", &format!("{info1} {info2}"));
            }
            ProbeTail::Screenshot { path, orientation } => {
                self.push_text(fields, "image on target", path);
                self.push_number(fields, "orientation", Decimal, u64::from(*orientation));
            }
            ProbeTail::Scene {
                scene,
                form,
                panel,
                transition,
                ..
            } => {
                self.push_text(fields, "scene", scene);
                self.push_text(fields, "form", form);
                self.push_text(fields, "panel", panel);
                self.push_number(fields, "transition", Decimal, *transition);
            }
            ProbeTail::Network {
                object,
                fd,
                ip,
                port,
                total,
                data,
                ..
            } => {
                let ip = ip.to_le_bytes();
                self.push_text(fields, "socket", &format!("{object:#x} fd {fd}"));
                self.push_text(
                    fields,
                    "destination",
                    &format!("{}.{}.{}.{}:{port}", ip[0], ip[1], ip[2], ip[3]),
                );
                self.push_number(fields, "bytes", Decimal, *total);
                if !data.is_empty() {
                    // The probe sends at most 1024 bytes; the page's payload
                    // box shows the first PAYLOAD_KEPT of them.
                    let kept: String = data
                        .iter()
                        .take(PAYLOAD_KEPT)
                        .map(|b| format!("{b:02x}"))
                        .collect();
                    self.push_text(fields, "data", &kept);
                }
            }
            ProbeTail::Gl {
                elapsed_ns, value, ..
            } => {
                self.push_number(fields, "elapsed ns", Decimal, *elapsed_ns);
                if !value.is_empty() {
                    self.push_text(fields, "value", value);
                }
            }
            _ => {}
        }
    }

    /// The counter of custom chart `name` on lane `t`.
    fn chart(&mut self, t: ThreadRef, name: &str) -> CounterRef {
        if let Some(&c) = self.charts.get(&t).and_then(|charts| charts.get(name)) {
            return c;
        }
        let c = self.counter(format!("custom: {name}"), "", None, Some(t));
        self.charts.entry(t).or_default().insert(name.to_owned(), c);
        c
    }

    /// Allocation stack: the instrumented calls open on the thread, then the API.
    fn probe_stack(&mut self, t: u32, api_id: u32) -> u32 {
        let calls = self.calls.open_stack(&mut self.b, t);
        let leaf = match self.apis.get(&api_id) {
            Some(&leaf) => leaf,
            None => {
                let leaf = self.b.intern(&format!("API #{api_id}"));
                self.apis.insert(api_id, leaf);
                leaf
            }
        };
        self.calls.child(&mut self.b, calls, leaf)
    }

    fn memory(&mut self, p: &Probe, time: i64, size: u64, api_type: u32, address: u64) {
        let t = self.lane(p.pid, p.tid, Lane::Functions);
        if !self.trace_level {
            // An allocation's only mark on its thread: its time.
            if api_type == 0 {
                self.b.touch(t, time);
            }
            return;
        }
        let heap = self.b.resource("memory", "bytes");
        match api_type {
            0 => {
                let stack = self.probe_stack(t, p.api_id);
                let at = self.b.allocate(heap, t, time, size, address, stack);
                // A block allocated at a live address replaces it (its free was lost).
                self.live_memory.insert((p.pid, address), at);
            }
            1 => match self.live_memory.remove(&(p.pid, address)) {
                Some(at) => self.b.free(heap, at, time),
                None => self.b.unmatched_free(heap),
            },
            _ => {}
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn file_probe(
        &mut self,
        p: &Probe,
        time: i64,
        fd: u64,
        api_type: u32,
        size: u64,
        file_size: u64,
        path: &str,
    ) {
        if !self.trace_level {
            // An opened descriptor's only mark on its thread: its time.
            if api_type == 0 {
                let t = self.lane(p.pid, p.tid, Lane::Functions);
                self.b.touch(t, time);
            }
            return;
        }
        self.tables.file_activity.push(vec![
            time.to_string(),
            p.pid.to_string(),
            p.tid.to_string(),
            fd.to_string(),
            file_event_name(api_type).to_owned(),
            size.to_string(),
            file_size.to_string(),
            path.to_owned(),
        ]);
        let t = self.lane(p.pid, p.tid, Lane::Functions);
        let fds = self.b.resource("file descriptor", "count");
        match api_type {
            0 => {
                let stack = self.probe_stack(t, p.api_id);
                let at = self.b.allocate(fds, t, time, 1, fd, stack);
                self.live_fds.insert((p.pid, fd), at);
            }
            1 => match self.live_fds.remove(&(p.pid, fd)) {
                Some(at) => self.b.free(fds, at, time),
                None => self.b.unmatched_free(fds),
            },
            _ => {}
        }
    }
}

/// How many bytes of a network probe's payload are kept (as hex, in its
/// `data` detail): enough for a request line and headers, bounded so a
/// socket-heavy trace stays compact.
pub const PAYLOAD_KEPT: usize = 256;

/// The socket / HTTP api types of the appendix (`probeinfo.h`).
fn socket_api(api_type: u32) -> &'static str {
    match api_type {
        0 => "fd open",
        1 => "fd close",
        2 => "recv start",
        3 => "recv end",
        4 => "send start",
        5 => "send end",
        6 => "bind",
        7 => "listen",
        8 => "connect",
        9 => "accept start",
        10 => "accept end",
        11 => "event start",
        12 => "event end",
        14..=23 => "http",
        _ => "other",
    }
}

fn memory_api(api_type: u32) -> &'static str {
    match api_type {
        0 => "alloc",
        1 => "free",
        2 => "manage",
        _ => "other",
    }
}

fn thread_api(api_type: u32) -> &'static str {
    match api_type {
        0 => "new",
        1 => "start",
        2 => "stop",
        3 => "exit",
        4 => "wait start",
        5 => "wait end",
        6 => "internal start",
        7 => "internal stop",
        _ => "other",
    }
}

fn sync_api(api_type: u32) -> &'static str {
    match api_type {
        0 => "new",
        1 => "acquire wait start",
        2 => "acquire wait end",
        3 => "release",
        4 => "try acquire",
        5 => "cond wait start",
        6 => "cond wait end",
        7 => "notify",
        8 => "notify all",
        _ => "other",
    }
}

fn ui_event(event_type: u32) -> &'static str {
    match event_type {
        1 => "key",
        2 => "touch",
        4 => "orientation",
        5 => "listener",
        6..=14 => "gesture",
        _ => "event",
    }
}
