//! What ran when: MSG_SAMPLE (a per-thread "CPU samples" set whose stacks
//! are the open instrumented calls plus the sampled pc) and
//! MSG_CONTEXT_SWITCH (nested `off-CPU` spans and a `<tid> running` counter).

use super::{Build, Lane};
use crate::model::SPAN_OFF_CPU;

impl Build {
    /// MSG_SAMPLE: one sample under the calls open on its thread.
    pub(super) fn sample(&mut self, pid: u32, tid: u32, pc: u64, time: i64) {
        let t = self.lane(pid, tid, Lane::Functions);
        if !self.trace_level {
            // The sample's only mark on its thread: its time.
            self.b.touch(t, time);
            self.b.count_events(t, 1);
            return;
        }
        let set = match self.samples.get(&t) {
            Some(&s) => s,
            None => {
                let s = self.b.sample_set("CPU samples", Some(t), &["samples"]);
                self.b.sample_set_note(
                    s,
                    "MSG_SAMPLE program counters under the instrumented calls open at the time",
                );
                self.samples.insert(t, s);
                s
            }
        };
        // The open instrumented calls give the sample a call path.
        let calls = self.calls.open_stack(&mut self.b, t);
        let leaf = self.address_name(pid, pc);
        let stack = self.calls.child(&mut self.b, calls, leaf);
        self.b.sample(set, Some(time), stack, &[1]);
        self.b.count_events(t, 1);
    }

    /// MSG_CONTEXT_SWITCH_ENTRY (switched out) / _EXIT (switched in).
    pub(super) fn context_switch(&mut self, pid: u32, tid: u32, entry: bool, time: i64) {
        let t = self.lane(pid, tid, Lane::Functions);
        self.b.count_events(t, 1);
        let running = match self.running.get(&t) {
            Some(&c) => c,
            None => {
                let c = self.counter(format!("{tid} running"), "on CPU", None, Some(t));
                self.running.insert(t, c);
                c
            }
        };
        // ENTRY is sent as the thread is switched out, EXIT as it is switched in.
        if entry {
            if self.off_cpu.get(t as usize) != Some(&true) {
                let name = self.b.intern("off-CPU");
                self.b.begin(t, time, name, SPAN_OFF_CPU);
                let at = t as usize;
                if self.off_cpu.len() <= at {
                    self.off_cpu.resize(at + 1, false);
                }
                if let Some(off) = self.off_cpu.get_mut(at) {
                    *off = true;
                }
            }
            self.b.counter_value(running, time, 0.0);
        } else {
            self.end_off_cpu(t, time);
            self.b.touch(t, time);
            self.b.counter_value(running, time, 1.0);
        }
    }
}
