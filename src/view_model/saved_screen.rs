//! The page's side of a `.flamedrop` analysis file
//! (`flamedrop_core::saved`) that needs no browser: the name a saved file
//! gets and a reopened file's screen kept with its trace (native tests).

use super::Loaded;
use flamedrop_core::saved::{Header, EXTENSION};

/// Keeps the screen a reopened file was saved on (`header`, as the worker
/// sent it) with the trace, which takes the saved trace's name.
pub fn reopened(loaded: &mut Loaded, header: &str) -> Result<(), String> {
    let header = Header::from_json(header)?;
    if !header.label.is_empty() {
        loaded.label.clone_from(&header.label);
    }
    loaded.reopened = Some(header);
    Ok(())
}

/// `<trace name>.flamedrop` for the trace opened as `label` ("demo
/// a-simple-nested", "uftrace.data/", "c-leaks.rtrace", "3 files").
pub fn file_name(label: &str) -> String {
    let name = label.strip_prefix("demo ").unwrap_or(label);
    let name = name.trim_end_matches('/');
    let name = name.strip_suffix(EXTENSION).unwrap_or(name);
    let name: String = name
        .chars()
        .map(|c| match c {
            '/' | '\\' | ':' | '*' | '?' | '"' | '<' | '>' | '|' => '_',
            c if c.is_control() => '_',
            c => c,
        })
        .collect();
    let name = name.trim();
    format!(
        "{}{EXTENSION}",
        if name.is_empty() { "trace" } else { name }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saved_file_is_named_after_its_trace() {
        assert_eq!(
            file_name("demo a-simple-nested"),
            "a-simple-nested.flamedrop"
        );
        assert_eq!(file_name("uftrace.data/"), "uftrace.data.flamedrop");
        assert_eq!(file_name("c-leaks.rtrace"), "c-leaks.rtrace.flamedrop");
        assert_eq!(file_name("x.flamedrop"), "x.flamedrop");
        assert_eq!(file_name("a/b: c"), "a_b_ c.flamedrop");
        assert_eq!(file_name(""), "trace.flamedrop");
    }

    #[test]
    fn a_reopened_screen_stays_with_its_trace() {
        let mut loaded = super::super::loaded::test_traces::main_and_work();
        let header = Header {
            label: "demo a-simple-nested".into(),
            fragment: "view=calltree".into(),
            selected: Some((0, 1)),
            ..Header::default()
        };
        let json = header.to_json();
        reopened(&mut loaded, &json).expect("reads");
        assert_eq!(loaded.label, "demo a-simple-nested");
        assert_eq!(loaded.reopened, Some(header));
        assert!(reopened(&mut loaded, "{").is_err());
    }
}
