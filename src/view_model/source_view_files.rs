//! The traced program's sources dropped with a trace (`.java` files, or the
//! `.java` entries of a sources `.jar` / `.zip`), kept as text by their
//! package path (`demo/TraceDemo.java`, from the file's `package` line), so
//! the Source view finds a method's file from its class and source file
//! name as SELogger's `methods.txt` writes them.

use flamedrop_core::archive;
use std::collections::BTreeMap;
use std::rc::Rc;

/// Source texts by package path.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SourceFiles {
    files: BTreeMap<String, Rc<str>>,
}

impl SourceFiles {
    /// True when nothing was dropped.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// How many files are kept.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// The package paths kept, in order.
    pub fn paths(&self) -> impl Iterator<Item = &str> {
        self.files.keys().map(String::as_str)
    }

    /// Keeps `text`, read from a file called `path` (any folder), under its
    /// package path; a later file with the same package path replaces it.
    pub fn add(&mut self, path: &str, text: &str) {
        let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
        let key = match package_of(text) {
            Some(package) if !package.is_empty() => {
                format!("{}/{name}", package.replace('.', "/"))
            }
            _ => name.to_owned(),
        };
        self.files.insert(key, Rc::from(text));
    }

    /// The file of class `class` (`demo/TraceDemo`, `demo/TraceDemo$Inner`)
    /// compiled from `source` (`TraceDemo.java`): the one at the class's
    /// package path, else the only kept file of that name.
    pub fn find(&self, class: &str, source: &str) -> Option<(&str, &Rc<str>)> {
        let package = class.rsplit_once('/').map_or("", |(package, _)| package);
        let key = if package.is_empty() {
            source.to_owned()
        } else {
            format!("{package}/{source}")
        };
        if let Some((path, text)) = self.files.get_key_value(&key) {
            return Some((path.as_str(), text));
        }
        let mut same_name = self
            .files
            .iter()
            .filter(|(path, _)| path.rsplit('/').next() == Some(source));
        match (same_name.next(), same_name.next()) {
            (Some((path, text)), None) => Some((path.as_str(), text)),
            _ => None,
        }
    }
}

/// Largest sources `.jar` / `.zip` read on the page (a sources archive is
/// small; a bigger `.zip` is left to the decoder as a trace).
pub const MAX_SOURCE_ARCHIVE: f64 = 32.0 * 1024.0 * 1024.0;

/// True for a `.java` file name or path.
pub fn is_java(path: &str) -> bool {
    path.to_ascii_lowercase().ends_with(".java")
}

/// What a `.jar` / `.zip` held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArchiveSources {
    /// `.java` entries kept.
    pub java: usize,
    /// Nothing but sources (`.java` entries, `META-INF/` and folders): the
    /// archive is not (part of) a trace.
    pub only_sources: bool,
}

impl SourceFiles {
    /// Keeps the `.java` entries of zip archive `bytes` (a `.jar` or
    /// `.zip` called `path`); an archive that cannot be read holds none.
    pub fn add_archive(&mut self, path: &str, bytes: &[u8]) -> ArchiveSources {
        let limits = archive::Limits {
            max_total_bytes: 256 << 20,
            max_entries: 100_000,
        };
        let mut sink = archive::MemorySink::default();
        if archive::expand(path, bytes, &limits, &mut sink).is_err() {
            return ArchiveSources {
                java: 0,
                only_sources: false,
            };
        }
        let mut java = 0;
        let mut only_sources = true;
        for (entry, data) in &sink.files {
            if is_java(entry) {
                java += 1;
                self.add(entry, &String::from_utf8_lossy(data));
            } else if !entry.split('/').any(|part| part == "META-INF") {
                only_sources = false;
            }
        }
        ArchiveSources {
            java,
            only_sources: only_sources && java > 0,
        }
    }
}

/// The `package a.b;` a Java file declares (comments and blank lines before
/// it skipped), or `None`.
fn package_of(text: &str) -> Option<String> {
    let mut in_comment = false;
    for line in text.lines().take(200) {
        let mut rest = line.trim();
        loop {
            if in_comment {
                match rest.split_once("*/") {
                    Some((_, after)) => {
                        in_comment = false;
                        rest = after.trim_start();
                    }
                    None => break,
                }
            } else if let Some(after) = rest.strip_prefix("/*") {
                in_comment = true;
                rest = after;
            } else if rest.is_empty() || rest.starts_with("//") {
                break;
            } else if rest.starts_with('@') {
                // A package annotation (package-info.java) before the line.
                break;
            } else {
                let declared = rest.strip_prefix("package")?;
                let name = declared.trim_start().split(';').next()?.trim();
                return Some(name.split_whitespace().collect());
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_kept_by_package_path() {
        let mut files = SourceFiles::default();
        files.add(
            "case/source/TraceDemo.java",
            "/* header\n * more */\n// note\npackage demo;\n\nclass TraceDemo {}\n",
        );
        files.add("Plain.java", "class Plain {}\n");
        files.add("x/Deep.java", "package a.b.c ;\nclass Deep {}\n");
        let paths: Vec<&str> = files.paths().collect();
        assert_eq!(
            paths,
            ["Plain.java", "a/b/c/Deep.java", "demo/TraceDemo.java"]
        );
    }

    #[test]
    fn a_class_finds_its_file() {
        let mut files = SourceFiles::default();
        files.add("TraceDemo.java", "package demo;\nclass TraceDemo {}\n");
        files.add("Other.java", "package other;\nclass Other {}\n");
        files.add("dup/Other.java", "package third;\nclass Other {}\n");
        let found = files.find("demo/TraceDemo$Inner", "TraceDemo.java");
        assert_eq!(found.map(|(p, _)| p), Some("demo/TraceDemo.java"));
        // Not at its package path, but the only file of the name.
        assert_eq!(
            files
                .find("elsewhere/TraceDemo", "TraceDemo.java")
                .map(|(p, _)| p),
            Some("demo/TraceDemo.java")
        );
        assert_eq!(
            files.find("other/Other", "Other.java").map(|(p, _)| p),
            Some("other/Other.java")
        );
        // Two files of that name, neither at the package path.
        assert_eq!(files.find("nowhere/Other", "Other.java"), None);
        assert_eq!(files.find("demo/Missing", "Missing.java"), None);
    }
}

#[cfg(test)]
mod archive_tests {
    use super::*;

    fn crc32(data: &[u8]) -> u32 {
        let mut crc = !0u32;
        for &byte in data {
            crc ^= u32::from(byte);
            for _ in 0..8 {
                crc = if crc & 1 != 0 {
                    (crc >> 1) ^ 0xEDB8_8320
                } else {
                    crc >> 1
                };
            }
        }
        !crc
    }

    /// A zip of stored entries, written by the format's layout.
    fn stored_zip(entries: &[(&str, &str)]) -> Vec<u8> {
        let (mut out, mut central) = (Vec::new(), Vec::new());
        for (name, text) in entries {
            let (name, data) = (name.as_bytes(), text.as_bytes());
            let offset = out.len() as u32;
            let sizes = [crc32(data), data.len() as u32, data.len() as u32];
            out.extend_from_slice(b"PK\x03\x04\x14\0\0\0\0\0\0\0\0\0");
            sizes
                .iter()
                .for_each(|v| out.extend_from_slice(&v.to_le_bytes()));
            out.extend_from_slice(&(name.len() as u16).to_le_bytes());
            out.extend_from_slice(&[0, 0]);
            out.extend_from_slice(name);
            out.extend_from_slice(data);
            central.extend_from_slice(b"PK\x01\x02\x14\0\x14\0\0\0\0\0\0\0\0\0");
            sizes
                .iter()
                .for_each(|v| central.extend_from_slice(&v.to_le_bytes()));
            central.extend_from_slice(&(name.len() as u16).to_le_bytes());
            central.extend_from_slice(&[0; 12]);
            central.extend_from_slice(&offset.to_le_bytes());
            central.extend_from_slice(name);
        }
        let (at, size) = (out.len() as u32, central.len() as u32);
        out.extend_from_slice(&central);
        out.extend_from_slice(b"PK\x05\x06\0\0\0\0");
        let count = (entries.len() as u16).to_le_bytes();
        out.extend_from_slice(&[count, count].concat());
        out.extend_from_slice(&size.to_le_bytes());
        out.extend_from_slice(&at.to_le_bytes());
        out.extend_from_slice(&[0, 0]);
        out
    }

    #[test]
    fn a_sources_archive_gives_its_java_entries() {
        let jar = stored_zip(&[
            ("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\n"),
            ("demo/TraceDemo.java", "package demo;\nclass TraceDemo {}\n"),
            ("Top.java", "class Top {}\n"),
        ]);
        let mut files = SourceFiles::default();
        let got = files.add_archive("case/demo-sources.jar", &jar);
        assert_eq!(
            got,
            ArchiveSources {
                java: 2,
                only_sources: true
            }
        );
        let paths: Vec<&str> = files.paths().collect();
        assert_eq!(paths, ["Top.java", "demo/TraceDemo.java"]);
        let text = files
            .find("demo/TraceDemo", "TraceDemo.java")
            .map(|(_, t)| t.to_string());
        assert_eq!(text.as_deref(), Some("package demo;\nclass TraceDemo {}\n"));
    }

    #[test]
    fn a_trace_archive_with_sources_is_not_only_sources() {
        let zip = stored_zip(&[("out/dataids.txt", "0,0\n"), ("src/A.java", "package a;\n")]);
        let mut files = SourceFiles::default();
        let got = files.add_archive("trace.zip", &zip);
        assert_eq!(
            got,
            ArchiveSources {
                java: 1,
                only_sources: false
            }
        );
        assert_eq!(files.paths().collect::<Vec<_>>(), ["a/A.java"]);
        let none = files.add_archive("broken.zip", b"PK\x03\x04 not a zip");
        assert_eq!(
            none,
            ArchiveSources {
                java: 0,
                only_sources: false
            }
        );
        assert!(!is_java("x.javascript") && is_java("A.JAVA"));
    }
}
