//! `flamedrop open PATH...`: serves the embedded viewer and the given trace
//! on 127.0.0.1 and opens it in the default browser, as speedscope's CLI
//! does. The page fetches the trace from its own origin (`?trace=TOKEN`,
//! see the page's `loading::served`) and loads it as dropped files; the
//! server answers nothing else (`site`), and stops once the tab is closed
//! or after the idle timeout (`life`).

mod browser;
mod http;
mod life;
mod site;
mod viewer;

use crate::open_args::OpenArgs;
use http::{Body, Reply, Request};
use life::{Life, Stop};
use site::{Answer, Site};
use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
use std::net::{Ipv4Addr, TcpListener};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How often the server looks at the clock to see whether to stop.
const TICK: Duration = Duration::from_millis(250);

pub fn run(args: OpenArgs) -> Result<(), String> {
    let files = readable_files(&args.paths)?;
    let listener = bind(args.port)?;
    if !viewer::EMBEDDED {
        return Err(viewer::MISSING.to_owned());
    }
    let port = listener.local_addr().map_err(|e| e.to_string())?.port();
    let count = files.len();
    let site = Site::new(token(), files, port, viewer::asset);
    let url = site.url();
    // The address alone on stdout, for scripts; the rest on stderr.
    println!("{url}");
    eprintln!(
        "flamedrop: serving {} ({count} file{}) on 127.0.0.1 only; stops when the tab is \
         closed, after {} s with no page open, or on Ctrl-C",
        args.paths.join(" "),
        if count == 1 { "" } else { "s" },
        args.idle_timeout
    );
    if !args.no_browser {
        if let Err(message) = browser::open(&url) {
            eprintln!("flamedrop: {message}");
        }
    }
    let stop = serve(listener, site, Duration::from_secs(args.idle_timeout));
    eprintln!(
        "flamedrop: {}",
        match stop {
            Stop::Closed => "the page was closed; stopped",
            Stop::Idle => "no page open for the idle timeout; stopped",
        }
    );
    Ok(())
}

/// The files at `paths` as the page will see them (named as `report` names
/// them), each checked readable now rather than when the page asks.
fn readable_files(paths: &[String]) -> Result<Vec<(String, PathBuf)>, String> {
    let files = crate::files::found_files(paths)?;
    if files.is_empty() {
        return Err(format!("{}: no files to open", paths.join(" ")));
    }
    for (_, path) in &files {
        std::fs::File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    }
    Ok(files)
}

/// Listens on 127.0.0.1 at `port`, or a free port.
fn bind(port: Option<u16>) -> Result<TcpListener, String> {
    TcpListener::bind((Ipv4Addr::LOCALHOST, port.unwrap_or(0))).map_err(|e| match port {
        Some(port) if e.kind() == std::io::ErrorKind::AddrInUse => format!(
            "port {port} of 127.0.0.1 is busy: choose another with --port, or leave --port out \
             for a free one"
        ),
        Some(port) => format!("cannot listen on 127.0.0.1:{port}: {e}"),
        None => format!("cannot listen on 127.0.0.1: {e}"),
    })
}

/// 128 random bits in hex (the standard library's hash keys are seeded by
/// the OS), so only the page this run opens can name the trace.
fn token() -> String {
    let half = |n: u64| RandomState::new().hash_one(n);
    format!("{:016x}{:016x}", half(1), half(2))
}

/// Answers requests (a thread per connection) until the pages are gone or
/// the server is idle; the threads end with the process.
fn serve(listener: TcpListener, site: Site, idle: Duration) -> Stop {
    let life = Arc::new(Mutex::new(Life::new(idle, Instant::now())));
    let shared = (Arc::new(site), life.clone());
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let (site, life) = (shared.0.clone(), shared.1.clone());
            std::thread::spawn(move || {
                http::serve_connection(stream, &|request| answer(request, &site, &life));
            });
        }
    });
    loop {
        std::thread::sleep(TICK);
        let stop = life
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .stop(Instant::now());
        if let Some(stop) = stop {
            return stop;
        }
    }
}

fn answer(request: &Request, site: &Site, life: &Mutex<Life>) -> Reply {
    let now = Instant::now();
    let answer = site.answer(&request.method, &request.url, request.host.as_deref());
    let mut life = life.lock().unwrap_or_else(PoisonError::into_inner);
    life.request(now);
    match answer {
        Answer::Asset {
            bytes,
            content_type,
        } => {
            if content_type.starts_with("text/html") {
                life.page_requested(now);
            }
            reply(200, content_type, Body::Bytes(bytes))
        }
        Answer::Manifest(json) => reply(200, "application/json", Body::Text(json)),
        Answer::TraceFile(path) => match std::fs::File::open(&path) {
            Ok(file) => reply(200, "application/octet-stream", Body::File(file)),
            Err(e) => {
                eprintln!("flamedrop: cannot read {}: {e}", path.display());
                text(500, "cannot read the trace file\n")
            }
        },
        Answer::Alive(page) => {
            life.alive(page, now);
            text(204, "")
        }
        Answer::Closed(page) => {
            life.closed(&page, now);
            text(204, "")
        }
        Answer::NotFound => text(404, "not found\n"),
        Answer::WrongHost => text(403, "forbidden\n"),
        Answer::WrongMethod => text(405, "method not allowed\n"),
    }
}

fn reply(status: u16, content_type: &'static str, body: Body) -> Reply {
    Reply {
        status,
        content_type,
        body,
    }
}

fn text(status: u16, text: &str) -> Reply {
    reply(
        status,
        "text/plain; charset=utf-8",
        Body::Text(text.to_owned()),
    )
}
