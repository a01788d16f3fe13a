//! gzip: a single compressed file (`info.gz` → `info`), or a compressed tar
//! (`.tar.gz`, `.tgz`), told apart by the first 512 expanded bytes.

use super::{tar, ArchiveError, Expansion};
use crate::model::Severity;
use flate2::read::MultiGzDecoder;
use std::io::Read;

pub(super) fn expand(name: &str, data: &[u8], out: &mut Expansion) -> Result<(), ArchiveError> {
    let mut decoder = MultiGzDecoder::new(data);
    let mut head = vec![0u8; 512];
    let mut filled = 0;
    let mut failure: Option<String> = None;
    while filled < head.len() {
        match decoder.read(head.get_mut(filled..).unwrap_or(&mut [])) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => {
                failure = Some(e.to_string());
                break;
            }
        }
    }
    head.truncate(filled);
    if filled == 0 {
        if let Some(reason) = failure {
            return Err(out.damaged(&format!("not valid gzip data: {reason}")));
        }
    }
    let lower = name.to_ascii_lowercase();
    let tar_name = lower.ends_with(".tgz") || lower.ends_with(".tar.gz");
    let mut rest = head.as_slice().chain(decoder);
    if tar::looks_like_tar(&head, tar_name) {
        return tar::expand_stream(&mut rest, out);
    }
    let inner = inner_name(name);
    if out.begin(&inner)? {
        let failure = match failure {
            Some(f) => {
                let mut kept = head.as_slice();
                out.copy(&mut kept)?;
                Some(f)
            }
            None => out.copy(&mut rest)?,
        };
        out.end()?;
        if let Some(reason) = failure {
            out.note(
                "gzip-truncated",
                Severity::DataLoss,
                format!("{inner} could not be expanded to its end: {reason}"),
                None,
            );
        }
    }
    Ok(())
}

/// The expanded file's name: the archive's without `.gz` (`info.gz` → `info`).
fn inner_name(name: &str) -> String {
    let lower = name.to_ascii_lowercase();
    if lower.ends_with(".gz") && name.len() > 3 {
        name[..name.len() - 3].to_owned()
    } else if lower.ends_with(".tgz") {
        format!("{}.tar", &name[..name.len() - 4])
    } else {
        format!("{name}.expanded")
    }
}
