//! Opening the page in the desktop's default browser: `$BROWSER` when set,
//! else `xdg-open` (Linux and other Unixes), `open` (macOS) or `start`
//! (Windows).

use std::process::{Command, Stdio};

/// Starts the browser on `url`. A launcher that cannot be started is an
/// error at once; one that starts and then fails (no browser configured)
/// is told on stderr when it exits, from a thread of its own, since some
/// launchers only return when the browser does.
pub fn open(url: &str) -> Result<(), String> {
    let (program, mut command) = launcher(url);
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| cannot(&program, &e.to_string(), url))?;
    let url = url.to_owned();
    std::thread::spawn(move || match child.wait() {
        Ok(status) if !status.success() => {
            eprintln!("flamedrop: {}", cannot(&program, &status.to_string(), &url));
        }
        _ => {}
    });
    Ok(())
}

fn cannot(program: &str, why: &str, url: &str) -> String {
    format!("could not start a browser ({program}: {why}); open {url} in one yourself")
}

/// The command that opens `url`, and its name for messages.
fn launcher(url: &str) -> (String, Command) {
    if let Some(browser) = std::env::var_os("BROWSER").filter(|b| !b.is_empty()) {
        let mut command = Command::new(&browser);
        command.arg(url);
        return (browser.to_string_lossy().into_owned(), command);
    }
    let (program, args): (&str, &[&str]) = if cfg!(target_os = "windows") {
        ("cmd", &["/C", "start", ""])
    } else if cfg!(target_os = "macos") {
        ("open", &[])
    } else {
        ("xdg-open", &[])
    };
    let mut command = Command::new(program);
    command.args(args).arg(url);
    (program.to_owned(), command)
}
