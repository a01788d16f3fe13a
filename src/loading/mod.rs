//! Where traces come from: files and folders picked in the two file inputs
//! ([`picked`]), dropped on the page ([`dropped`]), bundled demos fetched
//! from the site itself ([`demos`]), the trace `flamedrop open` serves
//! beside the page ([`served`]), or files the OS opened the installed app
//! with ([`launched`]). Each ends as a list of
//! [`InputFile`]s (a relative path and a `Blob`) for the decoding worker,
//! whose answer [`unpack`] turns into the trace the page shows.
//!
//! This is the page's side of a load: the decoding workers are started and
//! watched by [`client`] (one worker), [`parts`] (the workers of one load)
//! and [`spare`] (workers started ahead of time), and [`slot`] is the one
//! load state machine that both the trace on screen and the comparison
//! trace use. While the trace on screen decodes, [`preview`] keeps the
//! workers' pictures of what they decoded so far, which the timeline draws.

pub mod budget;
pub mod client;
pub mod demos;
pub mod dropped;
pub mod launched;
pub mod part;
pub mod parts;
pub mod picked;
pub mod prescan;
pub mod preview;
pub mod served;
pub mod slot;
pub mod sources;
pub mod spare;
pub mod unpack;

pub use crate::wire::protocol::InputFile;

/// Files ready to decode, with a short description for the page.
pub struct Opened {
    pub files: Vec<InputFile>,
    /// What was opened: a folder name, "3 files", "demo a-simple-nested".
    pub label: String,
    /// The traced program's sources found among the files (`sources`).
    pub sources: crate::view_model::source_view_files::SourceFiles,
}

impl Opened {
    /// Sorts files by path (so a load does not depend on the order the browser
    /// listed them in) and describes them.
    pub fn new(mut files: Vec<InputFile>, label: Option<String>) -> Result<Opened, String> {
        if files.is_empty() {
            return Err("nothing to open: the selection holds no files".to_owned());
        }
        files.sort_by(|a, b| a.path.cmp(&b.path));
        let label = label.unwrap_or_else(|| describe(&files));
        Ok(Opened {
            files,
            label,
            sources: Default::default(),
        })
    }

    /// Total size in bytes.
    pub fn size(&self) -> f64 {
        self.files.iter().map(InputFile::size).sum()
    }
}

/// "uftrace.data/" for files under one folder, the name for one file, else "N files".
fn describe(files: &[InputFile]) -> String {
    let top = |p: &str| p.split_once('/').map(|(dir, _)| dir.to_owned());
    match files {
        [one] => one.path.clone(),
        [first, rest @ ..] => match top(&first.path) {
            Some(dir)
                if rest
                    .iter()
                    .all(|f| top(&f.path).as_deref() == Some(dir.as_str())) =>
            {
                format!("{dir}/")
            }
            _ => format!("{} files", files.len()),
        },
        [] => String::new(),
    }
}
