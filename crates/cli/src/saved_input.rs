//! A `.flamedrop` analysis file given where a trace is expected: recognised
//! by its first bytes, its model read back as the trace it was saved from
//! (the screen it was saved on is the page's business).

use flamedrop_core::saved;
use flamedrop_core::Trace;
use std::io::Read;
use std::path::Path;

/// The trace saved in `paths` when they are one `.flamedrop` file; `None`
/// when they are anything else (a recording, several files, a folder).
pub fn read_saved(paths: &[String]) -> Option<Result<Trace, String>> {
    let [path] = paths else {
        return None;
    };
    let path = Path::new(path);
    if !path.is_file() || !starts_with_magic(path) {
        return None;
    }
    Some(
        std::fs::read(path)
            .map_err(|e| format!("{}: {e}", path.display()))
            .and_then(|bytes| {
                saved::decode(&bytes)
                    .map(|saved| saved.trace)
                    .map_err(|e| format!("{}: {e}", path.display()))
            }),
    )
}

fn starts_with_magic(path: &Path) -> bool {
    let mut head = Vec::with_capacity(saved::MAGIC.len());
    std::fs::File::open(path)
        .and_then(|f| f.take(saved::MAGIC.len() as u64).read_to_end(&mut head))
        .is_ok_and(|_| saved::is_saved(&head) || is_cut_magic(&head))
}

/// A file cut inside the magic still gets the truncation message.
fn is_cut_magic(head: &[u8]) -> bool {
    head.len() >= 4 && saved::MAGIC.starts_with(head)
}
