//! The messages that say what a process is: PROCESS_INFO, TERMINATE,
//! PROCESS_COMM, PROCESS_MAP / UNMAP (which rename addresses from then on)
//! and PROCESS_STATUS_INFO (the files open at attach).

use super::super::messages::{ProcessInfo, ProcessStatusInfo};
use super::{Build, Lane};
use crate::model::Field;

impl Build {
    /// MSG_PROCESS_INFO: the process's name and mappings, and a marker.
    pub(super) fn process_info(&mut self, info: &ProcessInfo, time: i64) {
        self.comms.insert(info.pid, info.comm.clone());
        self.space.process_info(info);
        self.texts.mappings_changed();
        let process = self.b.process(&info.pid.to_string(), &info.comm);
        let _ = process;
        let t = self.lane(info.pid, info.pid, Lane::Functions);
        self.marker(
            t,
            time,
            "process info",
            vec![
                Field::new("binary", info.binary.clone()),
                Field::new("ppid", info.ppid.to_string()),
                Field::new("libraries", info.libs.len().to_string()),
            ],
        );
    }

    /// MSG_TERMINATE: a marker on the process's main lane.
    pub(super) fn terminate(&mut self, pid: u32, time: i64) {
        let t = self.lane(pid, pid, Lane::Functions);
        self.marker(t, time, "process terminated", Vec::new());
    }

    /// MSG_PROCESS_COMM: the process's new name, and a marker.
    pub(super) fn process_comm(&mut self, pid: u32, comm: &str, time: i64) {
        self.comms.insert(pid, comm.to_owned());
        let t = self.lane(pid, pid, Lane::Functions);
        self.marker(
            t,
            time,
            "name changed",
            vec![Field::new("comm", comm.to_owned())],
        );
    }

    /// MSG_PROCESS_MAP: a new mapping to name addresses by, and a marker.
    pub(super) fn process_map(&mut self, pid: u32, (low, high): (u64, u64), path: &str, time: i64) {
        self.space.map(pid, low, high, path);
        self.texts.mappings_changed();
        let t = self.lane(pid, pid, Lane::Functions);
        self.marker(
            t,
            time,
            "map",
            vec![Field::new("path", path.to_owned()), range(low, high)],
        );
    }

    /// MSG_PROCESS_UNMAP: a mapping removed, and a marker.
    pub(super) fn process_unmap(&mut self, pid: u32, (low, high): (u64, u64), time: i64) {
        self.space.unmap(pid, low, high);
        self.texts.mappings_changed();
        let t = self.lane(pid, pid, Lane::Functions);
        self.marker(t, time, "unmap", vec![range(low, high)]);
    }

    /// MSG_PROCESS_STATUS_INFO: rows of the open-files table.
    pub(super) fn status_info(&mut self, status: &ProcessStatusInfo) {
        for f in &status.files {
            self.tables.open_files.push(vec![
                status.pid.to_string(),
                f.fd.to_string(),
                f.size.to_string(),
                f.path.clone(),
            ]);
        }
    }
}

fn range(low: u64, high: u64) -> Field {
    Field::new("range", format!("{low:#x}-{high:#x}"))
}
