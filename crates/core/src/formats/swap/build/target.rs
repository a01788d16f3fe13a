//! Messages about the target rather than a call: MSG_ERROR and MSG_LSAN
//! (diagnostics and the target-messages table), MSG_RECORD's input events,
//! MSG_WEB_APP_SETUP_STAGE, MSG_FBI, MSG_UI_HIERARCHY and MSG_IMAGE (markers).

use super::super::messages::{InputEvent, Lsan, WebAppSetupStage};
use super::{Build, Lane};
use crate::model::{Field, Severity};

impl Build {
    /// MSG_ERROR: a row of the target-messages table and one diagnostic.
    pub(super) fn target_error(&mut self, text: &str, time: i64, offset: u64) {
        let text = text.to_owned();
        self.tables.target_messages.push(vec![
            time.to_string(),
            "error".into(),
            String::new(),
            text.clone(),
        ]);
        self.b.diagnose(Severity::Info, "target-error", Some(&self.file), Some(offset), 1, || {
            format!("the target reported errors (MSG_ERROR; all are in the target messages table), first: {text}")
        });
    }

    /// MSG_LSAN: a row of the target-messages table, a marker, and for a
    /// report a diagnostic (the report itself stays on the target).
    pub(super) fn lsan(&mut self, l: &Lsan, time: i64, offset: u64) {
        let status = lsan_status(l.status);
        self.tables.target_messages.push(vec![
            time.to_string(),
            format!("LSan {status}"),
            l.pid.to_string(),
            l.message.clone(),
        ]);
        let t = self.lane(l.pid, l.pid, Lane::Functions);
        self.marker(
            t,
            time,
            &format!("LSan {status}"),
            vec![Field::new("message", l.message.clone())],
        );
        if l.status == 2 {
            let text = l.message.clone();
            self.b.diagnose(Severity::Info, "lsan-report", Some(&self.file), Some(offset), 1, || {
                format!("LeakSanitizer wrote leak reports on the target (not in the stream), first: {text}")
            });
        }
    }

    /// MSG_RECORD: a marker per input event on the target lane.
    pub(super) fn record(&mut self, events: &[InputEvent], time: i64) {
        let t = self.target_lane();
        for e in events {
            let device = if e.device == 0 { "touch" } else { "key" };
            self.marker(
                t,
                time,
                &format!("input: {device}"),
                vec![
                    Field::new("type", e.kind.to_string()),
                    Field::new("code", e.code.to_string()),
                    Field::new("value", e.value.to_string()),
                ],
            );
        }
    }

    /// MSG_WEB_APP_SETUP_STAGE: a marker on the process's `web startup` lane.
    pub(super) fn web_app_setup_stage(&mut self, w: &WebAppSetupStage, time: i64) {
        let t = self.process_lane(w.pid, "web startup");
        let mut fields = Vec::new();
        if let Some(r) = w.resource {
            fields.push(Field::new("resource", r.to_string()));
        }
        if let Some(p) = &w.path {
            fields.push(Field::new("path", p.clone()));
        }
        self.marker(t, time, wsp_name(w.wsp_id), fields);
    }

    /// MSG_FBI: a marker with the variable's first bytes.
    pub(super) fn fbi(&mut self, variable: u32, data: &[u8], time: i64) {
        let t = self.target_lane();
        let hex: String = data.iter().take(32).map(|b| format!("{b:02x}")).collect();
        self.marker(
            t,
            time,
            &format!("variable #{variable}"),
            vec![
                Field::new("size", data.len().to_string()),
                Field::new("bytes", hex),
            ],
        );
    }

    /// MSG_UI_HIERARCHY: a marker naming the file left on the target.
    pub(super) fn ui_hierarchy(&mut self, path: &str, time: i64) {
        let t = self.target_lane();
        self.marker(
            t,
            time,
            "UI hierarchy",
            vec![Field::new("file on target", path.to_owned())],
        );
    }

    /// MSG_IMAGE: a marker with the payload's size.
    pub(super) fn image(&mut self, payload: &[u8], time: i64) {
        let t = self.target_lane();
        self.marker(
            t,
            time,
            "image",
            vec![Field::new("bytes", payload.len().to_string())],
        );
    }
}

fn lsan_status(status: u32) -> &'static str {
    match status {
        0 => "error",
        1 => "status",
        2 => "report",
        4 => "init done",
        _ => "message",
    }
}

fn wsp_name(id: u32) -> &'static str {
    match id {
        1 => "resource load begin",
        2 => "resource load end",
        3 => "resource processing begin",
        4 => "resource processing end",
        5 => "draw begin",
        6 => "draw end",
        _ => "web setup stage",
    }
}
