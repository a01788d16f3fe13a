//! The [`TraceBuilder`] half for stacks, samples, allocations, counters and
//! tables: everything that is not a span or a marker.

use super::{
    Allocations, Counter, SampleSet, StrId, Table, ThreadRef, TraceBuilder, NEVER_FREED, NO_PARENT,
};

/// Index of a sample set in the trace being built.
pub type SampleSetRef = usize;
/// Index of an allocation table (one per resource type).
pub type ResourceRef = usize;
/// Index of an allocation within its resource type.
pub type AllocationRef = usize;
/// Index of a counter track.
pub type CounterRef = usize;

impl TraceBuilder {
    /// The stack `frames` (outermost first), interned; `None` for no frames.
    pub fn stack(&mut self, frames: &[StrId]) -> Option<u32> {
        let mut at = NO_PARENT;
        for &frame in frames {
            at = self.child_stack(at, frame);
        }
        (at != NO_PARENT).then_some(at)
    }

    /// The stack made of `parent` (or [`NO_PARENT`]) plus one callee frame.
    pub fn child_stack(&mut self, parent: u32, frame: StrId) -> u32 {
        if let Some(&at) = self.stack_index.get(&(parent, frame)) {
            return at;
        }
        let stacks = &mut self.trace.stacks;
        let at = stacks.frame.len() as u32;
        stacks.frame.push(frame);
        stacks.parent.push(parent);
        self.stack_index.insert((parent, frame), at);
        at
    }

    /// Starts a sample set; `weight_names` gives its weight columns.
    pub fn sample_set(
        &mut self,
        name: &str,
        thread: Option<ThreadRef>,
        weight_names: &[&str],
    ) -> SampleSetRef {
        self.trace.sample_sets.push(SampleSet {
            name: name.to_owned(),
            thread,
            weight_names: weight_names.iter().map(|w| (*w).to_owned()).collect(),
            weights: vec![Vec::new(); weight_names.len()],
            ..SampleSet::default()
        });
        self.trace.sample_sets.len() - 1
    }

    /// Adds a sample; `time` is `None` for sets without a timeline. Missing
    /// weights count as 0, extra ones are ignored.
    pub fn sample(&mut self, set: SampleSetRef, time: Option<i64>, stack: u32, weights: &[i64]) {
        let Some(s) = self.trace.sample_sets.get_mut(set) else {
            return;
        };
        if let Some(time) = time {
            s.time.push(time);
        }
        s.stack.push(stack);
        for (i, column) in s.weights.iter_mut().enumerate() {
            column.push(weights.get(i).copied().unwrap_or(0));
        }
        if let (Some(t), Some(time)) = (s.thread, time) {
            self.touch(t, time);
        }
    }

    /// Sets the note a sample set shows in the UI.
    pub fn sample_set_note(&mut self, set: SampleSetRef, note: &str) {
        if let Some(s) = self.trace.sample_sets.get_mut(set) {
            s.note = note.to_owned();
        }
    }

    /// The allocation table of `resource`, created on first use.
    pub fn resource(&mut self, resource: &str, size_unit: &str) -> ResourceRef {
        if let Some(at) = self
            .trace
            .allocations
            .iter()
            .position(|a| a.resource == resource)
        {
            return at;
        }
        self.trace.allocations.push(Allocations {
            resource: resource.to_owned(),
            size_unit: size_unit.to_owned(),
            ..Allocations::default()
        });
        self.trace.allocations.len() - 1
    }

    /// The allocation table of `resource` as built so far.
    pub fn allocations(&self, resource: ResourceRef) -> Option<&Allocations> {
        self.trace.allocations.get(resource)
    }

    /// Records an allocation, live until [`TraceBuilder::free`] is called.
    pub fn allocate(
        &mut self,
        resource: ResourceRef,
        thread: ThreadRef,
        time: i64,
        size: u64,
        address: u64,
        stack: u32,
    ) -> AllocationRef {
        self.touch(thread, time);
        let Some(a) = self.trace.allocations.get_mut(resource) else {
            return 0;
        };
        a.push_thread(thread);
        a.time.push(time);
        a.size.push(size);
        a.address.push(address);
        a.stack.push(stack);
        a.free_time.push(NEVER_FREED);
        if !a.context.is_empty() {
            a.context.push(0);
        }
        a.len() - 1
    }

    /// Sets the context mask allocation `at` of `resource` was made in; the
    /// context column is made (0 for every earlier allocation) by the first
    /// mask that is not 0.
    pub fn allocation_context(&mut self, resource: ResourceRef, at: AllocationRef, mask: u32) {
        let Some(a) = self.trace.allocations.get_mut(resource) else {
            return;
        };
        if mask == 0 && a.context.is_empty() {
            return;
        }
        let len = a.len();
        a.context.resize(len, 0);
        if let Some(slot) = a.context.get_mut(at) {
            *slot = mask;
        }
    }

    /// Marks allocation `at` of `resource` released at `time`.
    pub fn free(&mut self, resource: ResourceRef, at: AllocationRef, time: i64) {
        if let Some(slot) = self
            .trace
            .allocations
            .get_mut(resource)
            .and_then(|a| a.free_time.get_mut(at))
        {
            *slot = time;
        }
    }

    /// Counts a release that matched no allocation.
    pub fn unmatched_free(&mut self, resource: ResourceRef) {
        if let Some(a) = self.trace.allocations.get_mut(resource) {
            a.unmatched_frees += 1;
        }
    }

    /// Starts a counter track.
    pub fn counter(
        &mut self,
        name: &str,
        unit: &str,
        process: Option<u32>,
        thread: Option<ThreadRef>,
    ) -> CounterRef {
        self.trace.counters.push(Counter {
            name: name.to_owned(),
            unit: unit.to_owned(),
            process,
            thread,
            ..Counter::default()
        });
        self.trace.counters.len() - 1
    }

    /// Adds a value to a counter track. Values must come in time order; one
    /// that goes back in time is placed at the latest time seen.
    pub fn counter_value(&mut self, counter: CounterRef, time: i64, value: f64) {
        if let Some(c) = self.trace.counters.get_mut(counter) {
            let time = c.time.last().map_or(time, |&last| time.max(last));
            c.time.push(time);
            c.value.push(value);
        }
    }

    /// Adds a sampled level to a counter track, as [`TraceBuilder::counter_value`]
    /// does, except that a value equal to the two points before it only
    /// moves the later one's time: a track holds its value until the next
    /// point, so each run of one value keeps its first and last sample and
    /// draws, reads and exports as the same steps. A device state or a
    /// memory total sampled every few milliseconds is then a few points,
    /// not one per sample.
    pub fn counter_level(&mut self, counter: CounterRef, time: i64, value: f64) {
        let Some(c) = self.trace.counters.get_mut(counter) else {
            return;
        };
        let n = c.value.len();
        let same = |v: Option<&f64>| v.is_some_and(|v| v.to_bits() == value.to_bits());
        if n >= 2 && same(c.value.get(n - 1)) && same(c.value.get(n - 2)) {
            if let Some(last) = c.time.last_mut() {
                *last = time.max(*last);
            }
            return;
        }
        self.counter_value(counter, time, value);
    }

    /// Points of counter `counter` so far.
    pub fn counter_len(&self, counter: CounterRef) -> usize {
        self.trace.counters.get(counter).map_or(0, |c| c.time.len())
    }

    /// Makes room for `additional` more points of `counter` (a hint, like
    /// [`TraceBuilder::reserve_spans`]).
    pub fn reserve_counter(&mut self, counter: CounterRef, additional: usize) {
        if let Some(c) = self.trace.counters.get_mut(counter) {
            // A hint too big for this machine is simply not followed.
            let _ = c.time.try_reserve_exact(additional);
            let _ = c.value.try_reserve_exact(additional);
        }
    }

    /// Makes room for exactly `additional` more allocations of `resource`,
    /// and for their context masks when `contexts` (a hint, like
    /// [`TraceBuilder::reserve_spans`]).
    pub fn reserve_allocations(
        &mut self,
        resource: ResourceRef,
        additional: usize,
        contexts: bool,
    ) {
        let Some(a) = self.trace.allocations.get_mut(resource) else {
            return;
        };
        // A hint too big for this machine is simply not followed.
        let _ = a.time.try_reserve_exact(additional);
        let _ = a.size.try_reserve_exact(additional);
        let _ = a.address.try_reserve_exact(additional);
        let _ = a.stack.try_reserve_exact(additional);
        let _ = a.free_time.try_reserve_exact(additional);
        if contexts {
            // The context column is made at the first mask, as long as the
            // others: room for all of them.
            let want = (a.len() + additional).saturating_sub(a.context.len());
            let _ = a.context.try_reserve_exact(want);
        }
    }

    /// Adds a format-specific table.
    pub fn table(&mut self, table: Table) {
        self.trace.tables.push(table);
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{Format, TimeUnit, TraceBuilder, NEVER_FREED};

    #[test]
    fn equal_stacks_share_one_index_and_read_back_root_first() {
        let mut b = TraceBuilder::new(Format::SpRtrace, TimeUnit::Us);
        let main = b.intern("main");
        let f = b.intern("f");
        let g = b.intern("g");
        let a = b.stack(&[main, f]).expect("stack");
        let again = b.stack(&[main, f]).expect("stack");
        let other = b.stack(&[main, g]).expect("stack");
        assert_eq!(a, again);
        assert_ne!(a, other);
        assert_eq!(b.stack(&[]), None);
        let trace = b.finish();
        assert_eq!(trace.stacks.frames(a), vec![main, f]);
        assert_eq!(trace.stacks.frames(other), vec![main, g]);
        assert_eq!(trace.stacks.len(), 3);
    }

    #[test]
    fn allocations_stay_live_until_freed() {
        let mut b = TraceBuilder::new(Format::SpRtrace, TimeUnit::Us);
        let p = b.process("1", "prog");
        let t = b.thread(p, "1", "prog");
        let main = b.intern("main");
        let stack = b.stack(&[main]).expect("stack");
        let heap = b.resource("memory", "bytes");
        let first = b.allocate(heap, t, 10, 100, 0x1000, stack);
        b.allocate(heap, t, 11, 50, 0x2000, stack);
        b.free(heap, first, 20);
        b.unmatched_free(heap);
        let trace = b.finish();
        let a = &trace.allocations[0];
        assert_eq!(a.free_time, vec![20, NEVER_FREED]);
        assert_eq!(a.unmatched_frees, 1);
        assert_eq!(trace.threads[0].time_range(), Some((10, 11)));
    }

    #[test]
    fn allocations_of_one_thread_keep_one_thread_entry() {
        let mut b = TraceBuilder::new(Format::SpRtrace, TimeUnit::Us);
        let p = b.process("1", "prog");
        let (t0, t1) = (b.thread(p, "1", "main"), b.thread(p, "2", "worker"));
        let main = b.intern("main");
        let stack = b.stack(&[main]).expect("stack");
        let heap = b.resource("memory", "bytes");
        for time in 0..3 {
            b.allocate(heap, t0, time, 8, 0x1000, stack);
        }
        let one = b.allocations(heap).expect("table").clone();
        assert_eq!(one.thread, [t0]);
        assert_eq!((one.thread_of(2), one.thread_of(3)), (Some(t0), None));
        b.allocate(heap, t1, 3, 8, 0x2000, stack);
        let trace = b.finish();
        let a = &trace.allocations[0];
        assert_eq!(a.thread, [t0, t0, t0, t1]);
        assert!(trace.check().is_empty());
        // Narrowed to none, the one entry goes too.
        let mut none = one;
        none.retain_where(&[false; 3]);
        assert!(none.is_empty() && none.thread.is_empty());
    }

    #[test]
    fn samples_keep_one_value_per_weight_column() {
        let mut b = TraceBuilder::new(Format::Swap, TimeUnit::Ns);
        let main = b.intern("main");
        let stack = b.stack(&[main]).expect("stack");
        let set = b.sample_set("allocations", None, &["bytes", "count"]);
        b.sample(set, Some(5), stack, &[64, 1]);
        b.sample(set, Some(6), stack, &[32]);
        let c = b.counter("live heap", "bytes", None, None);
        b.counter_value(c, 5, 64.0);
        b.counter_value(c, 4, 96.0);
        let trace = b.finish();
        assert_eq!(trace.sample_sets[0].weights, vec![vec![64, 32], vec![1, 0]]);
        assert_eq!(trace.counters[0].time, vec![5, 5]);
        assert_eq!(trace.time_range(), Some((5, 5)));
    }

    #[test]
    fn a_sampled_level_keeps_the_first_and_last_sample_of_each_run() {
        let mut b = TraceBuilder::new(Format::Swap, TimeUnit::Ns);
        let c = b.counter("wifi", "state", None, None);
        for (time, value) in [
            (0, 5.0),
            (1, 5.0),
            (2, 5.0),
            (3, 5.0),
            (4, 6.0),
            (5, 6.0),
            (6, 5.0),
        ] {
            b.counter_level(c, time, value);
        }
        let trace = b.finish();
        assert_eq!(trace.counters[0].time, vec![0, 3, 4, 5, 6]);
        assert_eq!(trace.counters[0].value, vec![5.0, 5.0, 6.0, 6.0, 5.0]);
    }
}
