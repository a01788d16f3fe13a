//! What the `open` server answers, decided without any socket: the viewer's
//! own files, the one trace it was given (under `/trace/TOKEN/`), the page's
//! "still open" and "closed" calls, and 404 for everything else (no folder
//! is ever listed, no other file read).

use std::path::PathBuf;

/// The served trace and how to reach it.
pub struct Site {
    /// Letters and digits; the page's URL carries it (`?trace=TOKEN`) and
    /// every trace URL starts with `/trace/TOKEN/`.
    token: String,
    /// Each file as the page sees it (`uftrace.data/info`) and where it is.
    files: Vec<(String, PathBuf)>,
    /// The `Host` headers a request from the page carries; any other is
    /// refused (a page of another site reaching this port by DNS tricks).
    hosts: [String; 2],
    /// The viewer's file at a path (`viewer::asset`, or a test's).
    assets: fn(&str) -> Option<&'static [u8]>,
}

/// What to answer a request with.
#[derive(Debug, PartialEq, Eq)]
pub enum Answer {
    /// A file of the viewer.
    Asset {
        bytes: &'static [u8],
        content_type: &'static str,
    },
    /// The list of the trace's files, as JSON.
    Manifest(String),
    /// One file of the trace, read from disk.
    TraceFile(PathBuf),
    /// A page says it is open (its id).
    Alive(String),
    /// A page has gone (its id).
    Closed(String),
    NotFound,
    /// A `Host` other than this server's address.
    WrongHost,
    WrongMethod,
}

impl Site {
    pub fn new(
        token: String,
        files: Vec<(String, PathBuf)>,
        port: u16,
        assets: fn(&str) -> Option<&'static [u8]>,
    ) -> Site {
        let hosts = [format!("127.0.0.1:{port}"), format!("localhost:{port}")];
        Site {
            token,
            files,
            hosts,
            assets,
        }
    }

    /// The page's address, with the trace named.
    pub fn url(&self) -> String {
        format!("http://{}/?trace={}", self.hosts[0], self.token)
    }

    /// The answer to `method url` with that `Host` header.
    pub fn answer(&self, method: &str, url: &str, host: Option<&str>) -> Answer {
        if !host.is_some_and(|h| self.hosts.iter().any(|mine| h.eq_ignore_ascii_case(mine))) {
            return Answer::WrongHost;
        }
        let (path, query) = url.split_once('?').unwrap_or((url, ""));
        let Some(rest) = path.strip_prefix("/trace/") else {
            if !matches!(method, "GET" | "HEAD") {
                return Answer::WrongMethod;
            }
            return self.asset(path.trim_start_matches('/'));
        };
        let Some(what) = rest
            .strip_prefix(self.token.as_str())
            .and_then(|r| r.strip_prefix('/'))
        else {
            return Answer::NotFound;
        };
        let page = page_id(query);
        match (method, what) {
            ("GET" | "HEAD", "manifest.json") => Answer::Manifest(self.manifest()),
            ("GET", "alive") => page.map_or(Answer::NotFound, Answer::Alive),
            // The page's beacon is a POST.
            ("POST", "closed") => page.map_or(Answer::NotFound, Answer::Closed),
            ("GET" | "HEAD", _) => what
                .strip_prefix("file/")
                .and_then(|n| n.parse::<usize>().ok())
                .and_then(|n| self.files.get(n))
                .map_or(Answer::NotFound, |(_, path)| {
                    Answer::TraceFile(path.clone())
                }),
            _ => Answer::WrongMethod,
        }
    }

    fn asset(&self, path: &str) -> Answer {
        let path = if path.is_empty() { "index.html" } else { path };
        match (self.assets)(path) {
            Some(bytes) => Answer::Asset {
                bytes,
                content_type: super::viewer::content_type(path),
            },
            None => Answer::NotFound,
        }
    }

    /// `{"files": [...]}`: the files' paths in the order `file/<n>` serves them.
    fn manifest(&self) -> String {
        let paths: Vec<&str> = self.files.iter().map(|(name, _)| name.as_str()).collect();
        serde_json::json!({ "files": paths }).to_string()
    }
}

/// `page=<id>` of a query, when it is a plausible id (letters and digits).
fn page_id(query: &str) -> Option<String> {
    query
        .split('&')
        .find_map(|pair| pair.strip_prefix("page="))
        .filter(|id| {
            !id.is_empty() && id.len() <= 32 && id.bytes().all(|b| b.is_ascii_alphanumeric())
        })
        .map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn viewer(path: &str) -> Option<&'static [u8]> {
        match path {
            "index.html" => Some(b"<html>"),
            "app-0123456789abcdef_bg.wasm" => Some(b"\0asm"),
            _ => None,
        }
    }

    fn site() -> Site {
        let files = vec![
            (
                "uftrace.data/info".to_owned(),
                PathBuf::from("/t/uftrace.data/info"),
            ),
            (
                "uftrace.data/1.dat".to_owned(),
                PathBuf::from("/t/uftrace.data/1.dat"),
            ),
        ];
        Site::new("Tok3n".to_owned(), files, 4321, viewer)
    }

    fn get(url: &str) -> Answer {
        site().answer("GET", url, Some("127.0.0.1:4321"))
    }

    #[test]
    fn the_page_and_its_files_are_served_with_their_types() {
        assert_eq!(site().url(), "http://127.0.0.1:4321/?trace=Tok3n");
        let page = Answer::Asset {
            bytes: b"<html>",
            content_type: "text/html; charset=utf-8",
        };
        assert_eq!(get("/"), page);
        assert_eq!(get("/?trace=Tok3n"), page);
        assert_eq!(get("/index.html"), page);
        assert_eq!(
            get("/app-0123456789abcdef_bg.wasm"),
            Answer::Asset {
                bytes: b"\0asm",
                content_type: "application/wasm",
            }
        );
    }

    #[test]
    fn the_trace_is_served_by_index_after_its_manifest() {
        assert_eq!(
            get("/trace/Tok3n/manifest.json"),
            Answer::Manifest(r#"{"files":["uftrace.data/info","uftrace.data/1.dat"]}"#.to_owned())
        );
        assert_eq!(
            get("/trace/Tok3n/file/1"),
            Answer::TraceFile(PathBuf::from("/t/uftrace.data/1.dat"))
        );
        assert_eq!(
            get("/trace/Tok3n/alive?page=ab12"),
            Answer::Alive("ab12".to_owned())
        );
        assert_eq!(
            site().answer(
                "POST",
                "/trace/Tok3n/closed?page=ab12",
                Some("localhost:4321")
            ),
            Answer::Closed("ab12".to_owned())
        );
    }

    #[test]
    fn anything_else_is_not_found() {
        for url in [
            "/Cargo.toml",
            "/../../etc/passwd",
            "/trace/",
            "/trace/Tok3n/",
            "/trace/Tok3n/file/2",
            "/trace/Tok3n/file/-1",
            "/trace/Tok3n/file/../../x",
            "/trace/Tok3n/uftrace.data/info",
            "/trace/wrong/manifest.json",
            "/trace/wrong/file/0",
            "/trace/Tok3n/alive",
            "/trace/Tok3n/alive?page=../x",
            "/demos/",
        ] {
            assert_eq!(get(url), Answer::NotFound, "{url}");
        }
    }

    #[test]
    fn other_hosts_and_methods_are_refused() {
        let s = site();
        assert_eq!(
            s.answer("GET", "/", Some("evil.example:4321")),
            Answer::WrongHost
        );
        assert_eq!(
            s.answer("GET", "/", Some("127.0.0.1:80")),
            Answer::WrongHost
        );
        assert_eq!(
            s.answer("GET", "/trace/Tok3n/file/0", None),
            Answer::WrongHost
        );
        assert_eq!(
            s.answer("PUT", "/", Some("127.0.0.1:4321")),
            Answer::WrongMethod
        );
        assert_eq!(
            s.answer("DELETE", "/trace/Tok3n/file/0", Some("127.0.0.1:4321")),
            Answer::WrongMethod
        );
    }
}
