//! Colours: a stable colour per function name (so `main` looks the same in
//! every lane and every session) and the light and dark chart themes.

/// Soft, mid-light fills that all carry dark text well.
pub const PALETTE: [&str; 16] = [
    "#f2a65a", "#e9c46a", "#a7c957", "#7fc8a9", "#80c7e0", "#8fb1e8", "#b39ddb", "#e59fc1",
    "#f28b82", "#d4b483", "#9ccc9c", "#7ed6c8", "#a3bffa", "#cfa5e8", "#f7b7a3", "#c5d86d",
];

/// The palette slot of a name: FNV-1a, so it never changes between runs.
pub fn palette_index(name: &str) -> u8 {
    let mut hash: u32 = 0x811c_9dc5;
    for b in name.bytes() {
        hash ^= u32::from(b);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    // Fold the high bits in: FNV's low bits alone cluster for short names.
    ((hash ^ (hash >> 16)) % PALETTE.len() as u32) as u8
}

/// How the page is painted: the theme, and whether calls are coloured by
/// their own name or by what they belong to (module, library, class,
/// namespace), so one library reads as one colour. The page's state holds
/// it; painters get it as a value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Colouring {
    pub dark: bool,
    pub by_group: bool,
}

/// The palette slot of a call named `name`, by its group or by its name.
pub fn colour_of(name: &str, by_group: bool) -> u8 {
    if by_group {
        palette_index(group_of(name))
    } else {
        palette_index(name)
    }
}

/// What a name belongs to: `libc.so.6` of `libc.so.6+0x1234`, `std::vector<int>`
/// of `std::vector<int>::push_back(int)`, `com.example.Foo` of
/// `com.example.Foo.bar`, `linux` of `linux:schedule`; else the name itself.
pub fn group_of(name: &str) -> &str {
    // Arguments never hold the group.
    let head = name.split('(').next().unwrap_or(name);
    if let Some((module, _)) = head.split_once('+') {
        return module;
    }
    if let Some(at) = head.rfind("::") {
        return &head[..at];
    }
    if let Some((prefix, _)) = head.split_once(':') {
        return prefix;
    }
    if let Some(at) = head.rfind('.') {
        if at > 0 && !head.ends_with(".so") {
            return &head[..at];
        }
    }
    name
}

/// Every colour the chart paints besides span fills.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Theme {
    /// The canvas background (also what `window.flamedrop.theme()` reports).
    pub background: &'static str,
    pub ruler: &'static str,
    pub ruler_text: &'static str,
    pub grid: &'static str,
    pub lane_header: &'static str,
    pub lane_text: &'static str,
    pub lane_separator: &'static str,
    pub span_text: &'static str,
    pub off_cpu: &'static str,
    pub hatch: &'static str,
    pub open_outline: &'static str,
    pub hover: &'static str,
    pub selection: &'static str,
    pub marker: &'static str,
    pub scrollbar: &'static str,
    pub muted: &'static str,
}

pub const LIGHT: Theme = Theme {
    background: "#ffffff",
    ruler: "#f3f4f6",
    ruler_text: "#4b5563",
    grid: "#eceef1",
    lane_header: "#f8f9fb",
    lane_text: "#1f2937",
    lane_separator: "#d7dbe0",
    span_text: "#1b1f24",
    off_cpu: "#c9ccd2",
    hatch: "#9aa0a9",
    open_outline: "#b42318",
    hover: "#111827",
    selection: "#1d4ed8",
    marker: "#c2410c",
    scrollbar: "rgba(60, 64, 72, 0.35)",
    muted: "#6b7280",
};

pub const DARK: Theme = Theme {
    background: "#16181d",
    ruler: "#1f2229",
    ruler_text: "#b4bac4",
    grid: "#23262e",
    lane_header: "#1b1e24",
    lane_text: "#e5e7eb",
    lane_separator: "#30343d",
    span_text: "#14161a",
    off_cpu: "#5b606b",
    hatch: "#878d98",
    open_outline: "#ff8a7a",
    hover: "#f9fafb",
    selection: "#60a5fa",
    marker: "#fb923c",
    scrollbar: "rgba(200, 205, 215, 0.35)",
    muted: "#9ca3af",
};

/// The theme for the page's colour scheme.
pub fn theme(dark: bool) -> &'static Theme {
    if dark {
        &DARK
    } else {
        &LIGHT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Listing view colours rows by palette slot with classes (the
    /// page's CSP allows no inline styles): its stylesheet holds the palette.
    #[test]
    fn the_listing_stylesheet_has_the_palette() {
        let css = include_str!("../../www/css/listing.css");
        for (slot, colour) in PALETTE.iter().enumerate() {
            let rule = format!(".listing-row.c{slot} {{ --c: {colour}; }}");
            assert!(css.contains(&rule), "missing {rule}");
        }
    }

    #[test]
    fn a_name_always_gets_the_same_colour() {
        assert_eq!(palette_index("main"), palette_index("main"));
        let distinct: std::collections::HashSet<u8> = [
            "main",
            "foo",
            "bar",
            "baz",
            "qux",
            "pthread_mutex_lock",
            "a",
            "b",
        ]
        .iter()
        .map(|n| palette_index(n))
        .collect();
        assert!(distinct.len() >= 4, "names should spread over the palette");
    }

    #[test]
    fn groups_are_modules_classes_and_namespaces() {
        assert_eq!(group_of("libc.so.6+0x1234"), "libc.so.6");
        assert_eq!(
            group_of("std::vector<int>::push_back(int)"),
            "std::vector<int>"
        );
        assert_eq!(group_of("com.example.Foo.bar"), "com.example.Foo");
        assert_eq!(group_of("linux:schedule"), "linux");
        assert_eq!(group_of("main"), "main");
    }

    #[test]
    fn backgrounds_are_plain_hex_for_the_js_api() {
        for t in [LIGHT, DARK] {
            assert!(t.background.len() == 7 && t.background.starts_with('#'));
        }
    }
}
