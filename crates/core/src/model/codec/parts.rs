//! The codec's parts of a trace: what each holds beside its columns (ids,
//! names, notes), written and read around the walk over its columns.

use super::bytes::{Reader, Writer};
use super::{severity_code, severity_from};
use crate::model::{Allocations, Column, Counter, Diagnostic, Field, SampleSet, Table, Thread};

impl Writer {
    pub(super) fn thread(&mut self, t: &Thread) {
        self.str(&t.id);
        self.str(&t.name);
        self.u64(u64::from(t.process));
        self.u64(t.events);
        self.opt_i64(t.first_time);
        self.opt_i64(t.last_time);
        t.visit_columns(self);
    }

    pub(super) fn diagnostic(&mut self, d: &Diagnostic) {
        self.u8(severity_code(d.severity));
        self.str(&d.kind);
        self.str(&d.message);
        self.opt_str(d.file.as_deref());
        self.opt_i64(d.offset.map(|o| o as i64));
        self.u64(d.count);
    }

    pub(super) fn sample_set(&mut self, s: &SampleSet) {
        self.str(&s.name);
        self.opt_u32(s.thread);
        self.strings(&s.weight_names);
        s.visit_columns(self);
        self.str(&s.note);
    }

    pub(super) fn allocations(&mut self, a: &Allocations) {
        self.str(&a.resource);
        self.str(&a.size_unit);
        a.visit_columns(self);
        self.u64(a.unmatched_frees);
    }

    pub(super) fn counter(&mut self, c: &Counter) {
        self.str(&c.name);
        self.str(&c.unit);
        self.opt_u32(c.process);
        self.opt_u32(c.thread);
        c.visit_columns(self);
    }

    pub(super) fn table(&mut self, t: &Table) {
        self.str(&t.id);
        self.str(&t.title);
        self.each(&t.columns, |w, c| {
            w.str(&c.name);
            w.u8(u8::from(c.numeric));
        });
        t.visit_columns(self);
        self.each(&t.row_highlight, |w, h| {
            w.u8(u8::from(h.is_some()));
            if let Some(f) = h {
                w.str(&f.key);
                w.str(&f.value);
            }
        });
        self.str(&t.note);
    }
}

impl Reader<'_> {
    pub(super) fn thread(&mut self) -> Option<Thread> {
        let mut thread = Thread {
            id: self.str()?,
            name: self.str()?,
            process: u32::try_from(self.u64()?).ok()?,
            events: self.u64()?,
            first_time: self.opt_i64()?,
            last_time: self.opt_i64()?,
            ..Thread::default()
        };
        self.columns(|v| thread.visit_columns_mut(v))?;
        let consistent = thread.details().iter().all(|d| d.is_consistent());
        consistent.then_some(thread)
    }

    pub(super) fn diagnostic(&mut self) -> Option<Diagnostic> {
        Some(Diagnostic {
            severity: severity_from(self.u8()?)?,
            kind: self.str()?,
            message: self.str()?,
            file: self.opt_str()?,
            offset: self.opt_i64()?.map(|o| o as u64),
            count: self.u64()?,
        })
    }

    pub(super) fn sample_set(&mut self) -> Option<SampleSet> {
        let mut set = SampleSet {
            name: self.str()?,
            thread: self.opt_u32()?,
            weight_names: self.strings()?,
            ..SampleSet::default()
        };
        self.columns(|v| set.visit_columns_mut(v))?;
        set.note = self.str()?;
        Some(set)
    }

    pub(super) fn allocations(&mut self) -> Option<Allocations> {
        let mut a = Allocations {
            resource: self.str()?,
            size_unit: self.str()?,
            ..Allocations::default()
        };
        self.columns(|v| a.visit_columns_mut(v))?;
        a.unmatched_frees = self.u64()?;
        Some(a)
    }

    pub(super) fn counter(&mut self) -> Option<Counter> {
        let mut c = Counter {
            name: self.str()?,
            unit: self.str()?,
            process: self.opt_u32()?,
            thread: self.opt_u32()?,
            ..Counter::default()
        };
        self.columns(|v| c.visit_columns_mut(v))?;
        Some(c)
    }

    pub(super) fn table(&mut self) -> Option<Table> {
        let mut table = Table {
            id: self.str()?,
            title: self.str()?,
            columns: self.each(|r| {
                Some(Column {
                    name: r.str()?,
                    numeric: r.u8()? == 1,
                })
            })?,
            ..Table::default()
        };
        self.columns(|v| table.visit_columns_mut(v))?;
        table.row_highlight = self.each(|r| {
            Some(if r.u8()? == 1 {
                Some(Field {
                    key: r.str()?,
                    value: r.str()?,
                })
            } else {
                None
            })
        })?;
        table.note = self.str()?;
        Some(table)
    }
}
