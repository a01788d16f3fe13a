//! One lane per task data file, in the order `info` lists the tasks, named
//! after the task's program; what is missing or extra is reported.

use super::roles::Role;
use super::{symbols, RecordingState, UftraceDecoder};
use crate::model::Severity;

impl UftraceDecoder {
    /// Creates a thread for every task data file offered.
    #[inline(never)] // see docs/performance.md, "Run-once functions kept small"
    pub(super) fn create_threads(&mut self, rec: &mut RecordingState) {
        let data_tids = self.data_tids_in_task_order(rec);
        report_missing_and_unlisted(&data_tids, rec);
        for tid in data_tids.iter().filter(|t| self.selection.keeps_thread(t)) {
            add_thread(tid, rec);
        }
        rec.last_perf_time = self
            .perf_by_tid
            .iter()
            .filter(|(tid, _)| data_tids.contains(tid))
            .filter_map(|(_, events)| events.back().map(|e| e.time))
            .max();
        let orphan_events: u64 = self
            .perf_by_tid
            .iter()
            .filter(|(tid, _)| !data_tids.contains(tid))
            .map(|(_, events)| events.len() as u64)
            .sum();
        if orphan_events > 0 {
            rec.builder.diagnose(
                Severity::Info,
                "perf-without-task",
                None,
                None,
                orphan_events,
                || {
                    "scheduler events of tasks with no trace data were left out, as uftrace does"
                        .into()
                },
            );
        }
    }

    /// The tids of the task data files: those `info` lists first, in its
    /// order, then the others.
    fn data_tids_in_task_order(&self, rec: &RecordingState) -> Vec<String> {
        let mut data_tids: Vec<String> = self
            .plan
            .iter()
            .filter_map(|&i| match self.files.role(i) {
                Some(Role::Data { tid }) => Some(tid.clone()),
                _ => None,
            })
            .collect();
        let listed = &rec.info.tids;
        data_tids.sort_by_key(|tid| listed.iter().position(|t| t == tid).unwrap_or(usize::MAX));
        data_tids
    }
}

/// Tasks `info` lists without a data file, and data files it does not list.
fn report_missing_and_unlisted(data_tids: &[String], rec: &mut RecordingState) {
    let missing: Vec<&str> = rec
        .info
        .tids
        .iter()
        .filter(|t| !data_tids.contains(t))
        .map(String::as_str)
        .collect();
    if !missing.is_empty() {
        let list = missing.join(", ");
        rec.builder.diagnose(
            Severity::DataLoss,
            "missing-dat",
            None,
            None,
            missing.len() as u64,
            || format!("tasks listed in info have no .dat file: {list}"),
        );
    }
    let unlisted = data_tids
        .iter()
        .filter(|t| !rec.info.tids.is_empty() && !rec.info.tids.contains(t))
        .count();
    if unlisted > 0 {
        rec.builder.diagnose(
            Severity::Info,
            "unlisted-dat",
            None,
            None,
            unlisted as u64,
            || {
                ".dat files of tasks not listed in info (uftrace ignores them) were decoded too"
                    .into()
            },
        );
    }
}

/// The lane of task `tid`, in its process, named after the program it ran.
fn add_thread(tid: &str, rec: &mut RecordingState) {
    let tasks = &rec.resolver.tasks;
    let pid = tasks
        .tasks
        .get(tid)
        .map_or_else(|| tid.to_owned(), |t| t.pid.clone());
    let exe = tasks
        .sessions
        .iter()
        .find(|s| s.pid == pid)
        .or_else(|| {
            tasks
                .session_for(tid, i64::MAX)
                .and_then(|i| tasks.sessions.get(i))
        })
        .map(|s| symbols::basename(&s.exename).to_owned())
        .unwrap_or_default();
    let process = rec.builder.process(&pid, &exe);
    rec.builder.thread(process, tid, &exe);
}
