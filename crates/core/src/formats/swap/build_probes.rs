//! MSG_PROBE_* messages: a marker on the calling thread for every probe,
//! plus memory probes feeding the allocation view (alloc/free matched by
//! address per process), file probes the file-activity table and a file
//! descriptor resource (open/close), custom chart probes a counter track.

use super::build::{value_fields, Build, Lane};
use super::build_calls::file_event_name;
use super::messages::{Probe, ProbeTail};
use crate::model::{Field, NO_PARENT};

impl Build<'_> {
    /// One probe message.
    pub fn probe(&mut self, p: &Probe, time: i64) {
        let t = self.lane(p.pid, p.tid, Lane::Functions);
        self.end_off_cpu(t, time);
        let api = format!("API #{}", p.api_id);
        let mut fields = value_fields(&p.args, Some(&p.ret));
        if p.errno != 0 {
            fields.push(Field::new("errno", p.errno.to_string()));
        }
        fields.push(Field::new("call type", p.call_type.to_string()));
        if p.caller != 0 {
            fields.push(Field::new("caller", self.space.name(p.pid, p.caller)));
        }
        let (kind, what) = match &p.tail {
            ProbeTail::Memory {
                size,
                api_type,
                address,
            } => {
                fields.push(Field::new("size", size.to_string()));
                fields.push(Field::new("address", format!("{address:#x}")));
                self.memory(p, time, *size, *api_type, *address);
                ("memory", memory_api(*api_type).to_owned())
            }
            ProbeTail::UiControl { parent, child } => {
                fields.push(Field::new(
                    "parent",
                    format!("{} {} @{:#x}", parent.kind, parent.name, parent.address),
                ));
                fields.push(Field::new(
                    "child",
                    format!("{} {} @{:#x}", child.kind, child.name, child.address),
                ));
                ("UI control", String::new())
            }
            ProbeTail::UiEvent {
                event_type,
                detail,
                x,
                y,
                info1,
                info2,
            } => {
                fields.push(Field::new("position", format!("{x},{y}")));
                fields.push(Field::new("detail", detail.to_string()));
                fields.push(Field::new("info", format!("{info1} {info2}")));
                ("UI event", ui_event(*event_type).to_owned())
            }
            ProbeTail::Resource {
                size,
                fd,
                api_type,
                file_size,
                path,
            } => {
                fields.push(Field::new("fd", fd.to_string()));
                fields.push(Field::new("path", path.clone()));
                fields.push(Field::new("size", size.to_string()));
                self.file_probe(p, time, *fd, *api_type, *size, *file_size, path);
                ("file", file_event_name(*api_type).to_owned())
            }
            ProbeTail::Lifecycle => ("lifecycle", String::new()),
            ProbeTail::Screenshot { path, orientation } => {
                fields.push(Field::new("image on target", path.clone()));
                fields.push(Field::new("orientation", orientation.to_string()));
                ("screenshot", String::new())
            }
            ProbeTail::Scene {
                scene,
                form,
                panel,
                transition,
                ..
            } => {
                fields.push(Field::new("scene", scene.clone()));
                fields.push(Field::new("form", form.clone()));
                fields.push(Field::new("panel", panel.clone()));
                fields.push(Field::new("transition", transition.to_string()));
                ("scene", String::new())
            }
            ProbeTail::Thread {
                pthread_id,
                tizen_thread_id,
                thread_type,
                api_type,
                class_name,
            } => {
                fields.push(Field::new("pthread", format!("{pthread_id:#x}")));
                if *tizen_thread_id != 0 {
                    fields.push(Field::new("tizen thread", format!("{tizen_thread_id:#x}")));
                }
                fields.push(Field::new("thread type", thread_type.to_string()));
                if !class_name.is_empty() {
                    fields.push(Field::new("class", class_name.clone()));
                }
                ("thread", thread_api(*api_type).to_owned())
            }
            ProbeTail::Custom {
                handle,
                chart_type,
                name,
                color,
                value,
            } => {
                fields.push(Field::new(
                    "chart",
                    format!("{name} (handle {handle}, type {chart_type}, color {color:#x})"),
                ));
                fields.push(Field::new("value", value.to_string()));
                let c = self.counter(format!("custom: {name}"), "", None, Some(t));
                self.b.counter_value(c, time, *value);
                ("custom chart", String::new())
            }
            ProbeTail::Sync {
                object,
                sync_type,
                api_type,
            } => {
                fields.push(Field::new("sync object", format!("{object:#x}")));
                fields.push(Field::new("sync type", sync_type.to_string()));
                ("sync", sync_api(*api_type).to_owned())
            }
            ProbeTail::Network {
                object,
                fd,
                api_type,
                ip,
                port,
                total,
                data,
            } => {
                let ip = ip.to_le_bytes();
                fields.push(Field::new("socket", format!("{object:#x} fd {fd}")));
                fields.push(Field::new(
                    "destination",
                    format!("{}.{}.{}.{}:{port}", ip[0], ip[1], ip[2], ip[3]),
                ));
                fields.push(Field::new("bytes", total.to_string()));
                if !data.is_empty() {
                    let preview: String =
                        data.iter().take(32).map(|b| format!("{b:02x}")).collect();
                    fields.push(Field::new("data", preview));
                }
                ("network", format!("api type {api_type}"))
            }
            ProbeTail::Gl {
                api_type,
                elapsed_ns,
                value,
                ..
            } => {
                fields.push(Field::new("elapsed ns", elapsed_ns.to_string()));
                if !value.is_empty() {
                    fields.push(Field::new("value", value.clone()));
                }
                ("OpenGL", format!("api type {api_type}"))
            }
            ProbeTail::Other { id, bytes } => {
                fields.push(Field::new("tail bytes", bytes.len().to_string()));
                ("probe", format!("id {id:#06x}"))
            }
        };
        let name = if what.is_empty() {
            format!("{kind}: {api}")
        } else {
            format!("{kind} {what}: {api}")
        };
        self.marker(t, time, &name, fields);
    }

    /// Allocation stack: the instrumented calls open on the thread, then the API.
    fn probe_stack(&mut self, t: u32, api_id: u32) -> u32 {
        let mut stack = NO_PARENT;
        for name in self.calls.open_names(t) {
            stack = self.b.child_stack(stack, name);
        }
        let leaf = self.b.intern(&format!("API #{api_id}"));
        self.b.child_stack(stack, leaf)
    }

    fn memory(&mut self, p: &Probe, time: i64, size: u64, api_type: u32, address: u64) {
        let t = self.lane(p.pid, p.tid, Lane::Functions);
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
