//! A recording that is a folder of files, each with a role.
//!
//! Folder formats (uftrace, Scaler, SELogger) all do the same before decoding:
//! pick the recording's folder among what was dropped, give every file there
//! its role, note the files that have none (reported once, as
//! `ignored-files`), order the plan, and hold the metadata files whole until
//! they are parsed. [`Recording`] does that; the roles stay the format's own.

use crate::decoder::FileProbe;
use crate::model::{Severity, TraceBuilder};
use std::collections::HashMap;

/// The offered files, the role of each in the recording, and the whole
/// contents of the files buffered so far.
#[derive(Debug)]
pub struct Recording<R> {
    probes: Vec<FileProbe>,
    roles: Vec<Option<R>>,
    ignored: Vec<String>,
    buffers: HashMap<usize, Vec<u8>>,
    current: Option<usize>,
}

impl<R> Recording<R> {
    /// The folder of the recording: the first (by path) folder holding a
    /// file for which `marks` is true; `None` when no file is marked.
    pub fn folder_of(probes: &[FileProbe], marks: impl Fn(&FileProbe) -> bool) -> Option<String> {
        probes
            .iter()
            .filter(|p| marks(p))
            .map(|p| p.dir().to_owned())
            .min()
    }

    /// Gives the files in `folder` their role by `role_of`; files elsewhere,
    /// and files there without a role, are ignored.
    pub fn new(
        probes: Vec<FileProbe>,
        folder: &str,
        role_of: impl Fn(&FileProbe) -> Option<R>,
    ) -> Self {
        let mut ignored = Vec::new();
        let roles = probes
            .iter()
            .map(|p| {
                let role = if p.dir() == folder { role_of(p) } else { None };
                if role.is_none() {
                    ignored.push(p.path.clone());
                }
                role
            })
            .collect();
        Recording {
            probes,
            roles,
            ignored,
            buffers: HashMap::new(),
            current: None,
        }
    }

    /// Every offered file.
    pub fn probes(&self) -> &[FileProbe] {
        &self.probes
    }

    /// The offered file `index`.
    pub fn probe(&self, index: usize) -> Option<&FileProbe> {
        self.probes.get(index)
    }

    /// The path of file `index` (`""` for an index not offered).
    pub fn path(&self, index: usize) -> &str {
        self.probe(index).map_or("", |p| p.path.as_str())
    }

    /// The role of file `index`, if it has one.
    pub fn role(&self, index: usize) -> Option<&R> {
        self.roles.get(index)?.as_ref()
    }

    /// The files with a role, with it, in offered order.
    pub fn roles(&self) -> impl Iterator<Item = (usize, &R)> + '_ {
        self.roles
            .iter()
            .enumerate()
            .filter_map(|(i, r)| Some((i, r.as_ref()?)))
    }

    /// Takes the role of file `index` away (another file said the same
    /// better) and counts it as ignored.
    pub fn ignore(&mut self, index: usize) {
        if let Some(role) = self.roles.get_mut(index) {
            if role.take().is_some() {
                self.ignored.push(self.path(index).to_owned());
            }
        }
    }

    /// The paths of the files that are not part of the recording.
    pub fn ignored(&self) -> &[String] {
        &self.ignored
    }

    /// The files with a role, ordered by `key` (ties by file name).
    pub fn plan<K: Ord>(&self, key: impl Fn(&R) -> K) -> Vec<usize> {
        let mut plan: Vec<(K, &str, usize)> = self
            .roles()
            .filter_map(|(i, role)| Some((key(role), self.probe(i)?.name(), i)))
            .collect();
        plan.sort_by(|a, b| (&a.0, a.1).cmp(&(&b.0, b.1)));
        plan.into_iter().map(|(_, _, i)| i).collect()
    }

    /// Reports the ignored files once, as what is `not part of the {what}`.
    pub fn report_ignored(&self, builder: &mut TraceBuilder, what: &str) {
        let Some(first) = self.ignored.first() else {
            return;
        };
        builder.diagnose(
            Severity::Info,
            "ignored-files",
            None,
            None,
            self.ignored.len() as u64,
            || format!("files that are not part of the {what} were ignored (first: {first})"),
        );
    }

    /// Starts feeding file `index`.
    pub fn begin(&mut self, index: usize) {
        self.current = Some(index);
    }

    /// The file being fed, if any.
    pub fn current(&self) -> Option<usize> {
        self.current
    }

    /// The file being fed is complete: which it was.
    pub fn end(&mut self) -> Option<usize> {
        self.current.take()
    }

    /// Adds `chunk` to the whole contents of the file being fed.
    pub fn buffer(&mut self, chunk: &[u8]) {
        if let Some(index) = self.current {
            self.buffers
                .entry(index)
                .or_default()
                .extend_from_slice(chunk);
        }
    }

    /// The whole contents buffered for file `index`, handed over (empty
    /// when it was never fed).
    pub fn take_buffer(&mut self, index: usize) -> Vec<u8> {
        self.buffers.remove(&index).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Format, TimeUnit};

    fn probe(path: &str) -> FileProbe {
        FileProbe {
            path: path.into(),
            size: 1,
            head: vec![],
        }
    }

    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
    enum Role {
        Meta,
        Data,
    }

    fn role_of(p: &FileProbe) -> Option<Role> {
        match p.name() {
            "info" => Some(Role::Meta),
            n if n.ends_with(".dat") => Some(Role::Data),
            _ => None,
        }
    }

    fn sample() -> Recording<Role> {
        let probes = vec![
            probe("b/2.dat"),
            probe("b/info"),
            probe("b/notes.txt"),
            probe("c/info"),
            probe("b/1.dat"),
        ];
        let folder = Recording::<Role>::folder_of(&probes, |p| p.name() == "info").unwrap();
        assert_eq!(folder, "b");
        Recording::new(probes, &folder, role_of)
    }

    #[test]
    fn files_outside_the_folder_or_without_a_role_are_ignored() {
        let mut rec = sample();
        assert_eq!(rec.ignored(), ["b/notes.txt", "c/info"]);
        assert_eq!(rec.role(1), Some(&Role::Meta));
        assert_eq!(rec.role(3), None);
        assert_eq!(rec.role(99), None);
        assert_eq!(rec.plan(|r| *r), vec![1, 4, 0]);
        rec.ignore(4);
        rec.ignore(4);
        assert_eq!(rec.ignored().len(), 3);
        assert_eq!(rec.roles().map(|(i, _)| i).collect::<Vec<_>>(), vec![0, 1]);
        assert_eq!(rec.path(0), "b/2.dat");
        assert_eq!(rec.path(42), "");
        assert_eq!(Recording::<Role>::folder_of(rec.probes(), |_| false), None);
    }

    #[test]
    fn whole_files_are_buffered_while_fed() {
        let mut rec = sample();
        rec.buffer(b"lost: no file is being fed");
        rec.begin(1);
        assert_eq!(rec.current(), Some(1));
        rec.buffer(b"ab");
        rec.buffer(b"c");
        assert_eq!(rec.end(), Some(1));
        assert_eq!(rec.current(), None);
        assert_eq!(rec.take_buffer(1), b"abc");
        assert_eq!(rec.take_buffer(1), b"");
    }

    #[test]
    fn ignored_files_are_reported_once_with_the_first() {
        let rec = sample();
        let mut builder = TraceBuilder::new(Format::Uftrace, TimeUnit::Ns);
        rec.report_ignored(&mut builder, "uftrace recording");
        let trace = builder.finish();
        let d = trace
            .diagnostics
            .iter()
            .find(|d| d.kind == "ignored-files")
            .unwrap();
        assert_eq!(d.count, 2);
        assert!(d.message.contains("not part of the uftrace recording"));
        assert!(d.message.contains("(first: b/notes.txt)"));
    }
}
