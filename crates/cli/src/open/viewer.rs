//! The viewer's files (`dist/`), embedded at build time by `build.rs` when
//! they were there, with the content type each is served with.

#[cfg(flamedrop_viewer)]
static DIST: include_dir::Dir<'static> = include_dir::include_dir!("$FLAMEDROP_VIEWER_DIR");

/// Whether this binary holds the viewer.
pub const EMBEDDED: bool = cfg!(flamedrop_viewer);

/// What `open` says when the binary was built without the viewer.
pub const MISSING: &str = "this flamedrop was built without the viewer (there was no dist/ \
     when it was built). In the flamedrop checkout, run `trunk build --release` (after \
     scripts/setup.sh), then `cargo build --release -p flamedrop-cli` or \
     `cargo install --path crates/cli`, and run that flamedrop";

/// The embedded file at `path` (relative to `dist/`, no leading `/`).
#[cfg(flamedrop_viewer)]
pub fn asset(path: &str) -> Option<&'static [u8]> {
    DIST.get_file(path).map(include_dir::File::contents)
}

/// Built without the viewer: no file at all.
#[cfg(not(flamedrop_viewer))]
pub fn asset(_path: &str) -> Option<&'static [u8]> {
    None
}

/// The `Content-Type` a file is served with, by its extension (the
/// browser refuses a module script or streamed wasm of another type).
pub fn content_type(path: &str) -> &'static str {
    let extension = path.rsplit_once('.').map_or("", |(_, e)| e);
    match extension.to_ascii_lowercase().as_str() {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "wasm" => "application/wasm",
        "json" | "map" => "application/json",
        "webmanifest" => "application/manifest+json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "txt" => "text/plain; charset=utf-8",
        "ttf" => "font/ttf",
        "woff2" => "font/woff2",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_wasm_and_pages_get_the_types_browsers_require() {
        assert_eq!(
            content_type("app-0123456789abcdef.js"),
            "text/javascript; charset=utf-8"
        );
        assert_eq!(content_type("app_bg.wasm"), "application/wasm");
        assert_eq!(content_type("index.html"), "text/html; charset=utf-8");
        assert_eq!(content_type("fonts/DejaVuSans.ttf"), "font/ttf");
        assert_eq!(content_type("demos/a/0.dat"), "application/octet-stream");
    }

    #[test]
    fn the_embedded_viewer_has_its_page_when_built_with_one() {
        assert_eq!(asset("index.html").is_some(), EMBEDDED);
        assert!(asset("../Cargo.toml").is_none());
        assert!(asset("").is_none());
    }
}
