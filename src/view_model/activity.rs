//! The Files, Network and Threads views without web types: which page a
//! view shows, the chart's geometry (rows × the timeline's time axis, hit
//! tests), the table under it for the ruler's range, and what the detail box
//! says about a picked call (for network calls, the payload as hex and
//! text). The data comes from `flamedrop_core::analysis::activity`.

use super::text::{bytes, duration};
use super::{Loaded, View};
use flamedrop_core::analysis::activity::{Activity, ActivityKind, Mark, RowSummary, Source, State};
use flamedrop_core::model::Field;

/// Height of one chart row (CSS px).
pub const ROW_HEIGHT: f64 = 24.0;
/// Height of the time axis above the rows.
pub const AXIS_HEIGHT: f64 = 22.0;
/// Width of the row labels on the left.
pub const LABEL_WIDTH: f64 = 330.0;
/// How close (px) a click must be to a call's mark to pick it.
const PICK_PX: f64 = 6.0;

/// The page a view shows, if it is one of the activity views.
pub fn kind_of(view: View) -> Option<ActivityKind> {
    match view {
        View::Files => Some(ActivityKind::Files),
        View::Network => Some(ActivityKind::Network),
        View::Threads => Some(ActivityKind::Sync),
        _ => None,
    }
}

/// The states a page draws, for its legend.
pub fn states_of(kind: ActivityKind) -> &'static [State] {
    match kind {
        ActivityKind::Files => &[
            State::Open,
            State::Read,
            State::Write,
            State::Wait,
            State::Held,
        ],
        ActivityKind::Network => &[State::Open, State::Read, State::Write, State::Wait],
        ActivityKind::Sync => &[State::Wait, State::Held],
    }
}

/// What a state is called on a page (a socket's read is a receive).
pub fn state_label(kind: ActivityKind, state: State) -> &'static str {
    match (kind, state) {
        (ActivityKind::Network, State::Read) => "receive",
        (ActivityKind::Network, State::Write) => "send",
        (ActivityKind::Network, State::Wait) => "accept / event wait",
        (ActivityKind::Files, State::Wait) => "lock wait",
        (ActivityKind::Files, State::Held) => "lock held",
        (_, State::Wait) => "wait",
        (_, State::Held) => "held",
        (_, s) => s.name(),
    }
}

/// The chart's time axis: `from`..`to` (absolute trace times) over the
/// width right of the labels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Axis {
    pub from: i64,
    pub to: i64,
    /// The whole canvas width (CSS px).
    pub width: f64,
}

impl Axis {
    /// The axis of the ruler's `range`, or of the whole trace.
    pub fn of(loaded: &Loaded, range: Option<(i64, i64)>, width: f64) -> Axis {
        let (from, to) = range.unwrap_or((loaded.origin, loaded.origin + loaded.duration));
        Axis {
            from,
            to: to.max(from + 1),
            width,
        }
    }

    fn span(&self) -> f64 {
        (self.to - self.from).max(1) as f64
    }

    fn plot_width(&self) -> f64 {
        (self.width - LABEL_WIDTH).max(1.0)
    }

    /// The x of time `t`.
    pub fn x(&self, t: i64) -> f64 {
        LABEL_WIDTH + (t - self.from) as f64 / self.span() * self.plot_width()
    }

    /// The time at `x` (clamped to the axis).
    pub fn time_at(&self, x: f64) -> i64 {
        let f = ((x - LABEL_WIDTH) / self.plot_width()).clamp(0.0, 1.0);
        self.from + (f * self.span()).round() as i64
    }

    /// About `count` tick times inside the axis, round as offsets from
    /// `origin` (the trace's start, where the ruler counts from).
    pub fn ticks(&self, origin: i64, count: usize) -> Vec<i64> {
        let raw = self.span() / count.max(1) as f64;
        let magnitude = 10f64.powf(raw.log10().floor());
        let step = [1.0, 2.0, 5.0, 10.0]
            .iter()
            .map(|m| m * magnitude)
            .find(|s| *s >= raw)
            .unwrap_or(raw)
            .max(1.0) as i64;
        let first = origin + (self.from - origin).div_euclid(step) * step + step;
        (0..=count * 2)
            .map(|i| first + i as i64 * step)
            .take_while(|t| *t <= self.to)
            .collect()
    }
}

/// The top of row `row`.
pub fn row_top(row: usize) -> f64 {
    AXIS_HEIGHT + row as f64 * ROW_HEIGHT
}

/// The row drawn at `y`.
pub fn row_at(activity: &Activity, y: f64) -> Option<u32> {
    if y < AXIS_HEIGHT {
        return None;
    }
    let row = ((y - AXIS_HEIGHT) / ROW_HEIGHT).floor() as usize;
    (row < activity.rows.len()).then_some(row as u32)
}

/// The call whose mark is nearest (`x`, `y`), within a few pixels.
pub fn mark_at(activity: &Activity, axis: &Axis, x: f64, y: f64) -> Option<usize> {
    let row = row_at(activity, y)?;
    activity
        .marks
        .iter()
        .enumerate()
        .filter(|(_, m)| m.row == row)
        .map(|(i, m)| (i, (axis.x(m.time) - x).abs()))
        .filter(|(_, d)| *d <= PICK_PX)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(i, _)| i)
}

/// A row's label on the chart: the file's name, the socket, the object;
/// with its thread for files and sync objects.
pub fn row_label(loaded: &Loaded, activity: &Activity, row: usize) -> String {
    let Some(r) = activity.rows.get(row) else {
        return String::new();
    };
    let tid = loaded
        .trace
        .threads
        .get(r.thread as usize)
        .map_or("", |t| t.id.as_str());
    match activity.kind {
        ActivityKind::Files => {
            let name = r.object.rsplit('/').next().unwrap_or(&r.object);
            format!("{name} · tid {tid}")
        }
        ActivityKind::Network => match r.note.as_str() {
            "" => r.object.clone(),
            to => format!("{to} · {}", r.object),
        },
        ActivityKind::Sync => format!("tid {tid} · {}", r.object),
    }
}

/// The table's column titles for a page.
pub fn columns(kind: ActivityKind) -> &'static [&'static str] {
    match kind {
        ActivityKind::Files => &[
            "file",
            "thread",
            "calls",
            "failed",
            "read",
            "written",
            "open",
            "lock wait",
            "lock held",
            "APIs",
        ],
        ActivityKind::Network => &[
            "socket",
            "destination",
            "calls",
            "failed",
            "received",
            "sent",
            "open",
            "APIs",
        ],
        ActivityKind::Sync => &[
            "thread", "object", "type", "calls", "waits", "waited", "holds", "held", "APIs",
        ],
    }
}

/// True when column `at` of a page's table holds numbers (right-aligned):
/// those after the names, before the APIs.
pub fn is_number_column(kind: ActivityKind, at: usize) -> bool {
    let first = if kind == ActivityKind::Sync { 3 } else { 2 };
    at >= first && at + 1 < columns(kind).len()
}

/// The table's cells of `summary`'s row (times in the trace's `unit`).
pub fn cells(loaded: &Loaded, activity: &Activity, summary: &RowSummary) -> Vec<String> {
    let unit = loaded.unit();
    let Some(row) = activity.rows.get(summary.row as usize) else {
        return Vec::new();
    };
    let tid = loaded
        .trace
        .threads
        .get(row.thread as usize)
        .map(|t| format!("tid {}", t.id))
        .unwrap_or_default();
    let time = |s: State| match summary.time_in(s) {
        0 => "–".to_owned(),
        t => duration(t, unit),
    };
    let apis = summary
        .apis
        .iter()
        .map(|(api, n)| format!("{api} {n}"))
        .collect::<Vec<_>>()
        .join(" · ");
    let (calls, failed) = (summary.calls.to_string(), summary.failed.to_string());
    match activity.kind {
        ActivityKind::Files => vec![
            row.object.clone(),
            tid,
            calls,
            failed,
            bytes(summary.read as f64),
            bytes(summary.written as f64),
            time(State::Open),
            time(State::Wait),
            time(State::Held),
            apis,
        ],
        ActivityKind::Network => vec![
            row.object.clone(),
            row.note.clone(),
            calls,
            failed,
            bytes(summary.read as f64),
            bytes(summary.written as f64),
            time(State::Open),
            apis,
        ],
        ActivityKind::Sync => vec![
            tid,
            row.object.clone(),
            row.note.clone(),
            calls,
            summary.intervals_of(State::Wait).to_string(),
            time(State::Wait),
            summary.intervals_of(State::Held).to_string(),
            time(State::Held),
            apis,
        ],
    }
}

/// The rows of `activity` on the same sync object as `row` (every thread).
pub fn same_object(activity: &Activity, row: u32) -> Vec<bool> {
    let object = activity.rows.get(row as usize).map(|r| r.object.as_str());
    activity
        .rows
        .iter()
        .map(|r| Some(r.object.as_str()) == object)
        .collect()
}

/// What the detail box says about call `mark`: its API, time, thread and
/// every field of its event.
pub fn describe(loaded: &Loaded, activity: &Activity, mark: &Mark) -> Vec<Field> {
    let trace = &loaded.trace;
    let (thread, fields) = match mark.source {
        Source::Instant { thread, index } => (
            thread,
            trace
                .threads
                .get(thread as usize)
                .map(|t| t.instants.details_of(index, &trace.strings))
                .unwrap_or_default(),
        ),
        Source::Span { thread, index } => (
            thread,
            trace
                .threads
                .get(thread as usize)
                .map(|t| t.spans.details_of(index, &trace.strings))
                .unwrap_or_default(),
        ),
    };
    let mut out = vec![
        Field::new("call", trace.str(mark.name)),
        Field::new("API", mark.api),
        Field::new("at", duration(mark.time - loaded.origin, loaded.unit())),
        Field::new("thread", loaded.thread_title(thread as usize)),
    ];
    if let Some(row) = activity.rows.get(mark.row as usize) {
        out.push(Field::new("object", row.object.clone()));
    }
    if mark.failed {
        out.push(Field::new("result", "failed"));
    }
    out.extend(fields.into_iter().filter(|f| f.key != "data"));
    out
}

/// The payload of call `mark` (a network call's `data` detail), as bytes.
pub fn payload(loaded: &Loaded, mark: &Mark) -> Option<Vec<u8>> {
    let Source::Instant { thread, index } = mark.source else {
        return None;
    };
    let trace = &loaded.trace;
    let fields = trace
        .threads
        .get(thread as usize)?
        .instants
        .details_of(index, &trace.strings);
    let hex = fields.into_iter().find(|f| f.key == "data")?.value;
    (0..hex.len() / 2)
        .map(|i| u8::from_str_radix(hex.get(i * 2..i * 2 + 2)?, 16).ok())
        .collect()
}

/// A hex dump of `data`, 16 bytes a line: offset, bytes, printable text.
pub fn hex_dump(data: &[u8]) -> Vec<String> {
    data.chunks(16)
        .enumerate()
        .map(|(i, chunk)| {
            let hex: Vec<String> = chunk.iter().map(|b| format!("{b:02x}")).collect();
            let text: String = chunk
                .iter()
                .map(|&b| {
                    if (0x20..0x7f).contains(&b) {
                        b as char
                    } else {
                        '.'
                    }
                })
                .collect();
            format!("{:04x}  {:<47}  {text}", i * 16, hex.join(" "))
        })
        .collect()
}

/// `data` as text: printable ASCII kept, line breaks kept, the rest as `.`.
pub fn as_text(data: &[u8]) -> String {
    data.iter()
        .filter(|&&b| b != b'\r')
        .map(|&b| match b {
            b'\n' => '\n',
            0x20..=0x7e => b as char,
            _ => '.',
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use flamedrop_core::analysis::activity::{build, summarize};
    use flamedrop_core::decode_files;

    fn loaded(case: &str) -> Loaded {
        let path = format!(
            "{}/tests/fixtures/swap/{case}.swap",
            env!("CARGO_MANIFEST_DIR")
        );
        let bytes = std::fs::read(path).expect("fixture");
        let trace = decode_files(&[(format!("{case}.swap"), bytes)]).expect("decodes");
        Loaded::new(trace, Vec::new(), Vec::new(), case.into())
    }

    #[test]
    fn the_axis_maps_times_to_the_plot_and_back() {
        let axis = Axis {
            from: 1000,
            to: 2000,
            width: LABEL_WIDTH + 500.0,
        };
        assert_eq!(axis.x(1000), LABEL_WIDTH);
        assert_eq!(axis.x(2000), LABEL_WIDTH + 500.0);
        assert_eq!(axis.time_at(LABEL_WIDTH + 250.0), 1500);
        assert_eq!(axis.time_at(0.0), 1000);
        let ticks = axis.ticks(0, 5);
        assert!(ticks.iter().all(|t| t % 100 == 0), "{ticks:?}");
        assert!(axis.ticks(1003, 5).iter().all(|t| (t - 1003) % 100 == 0));
        assert!(ticks.len() >= 4 && ticks.iter().all(|t| (1000..=2000).contains(t)));
    }

    #[test]
    fn a_click_picks_the_nearest_call_on_its_row() {
        let l = loaded("activity");
        let a = build(&l.trace, ActivityKind::Network);
        let axis = Axis::of(&l, None, LABEL_WIDTH + 1000.0);
        let m = &a.marks[3];
        let y = row_top(m.row as usize) + ROW_HEIGHT / 2.0;
        let picked = mark_at(&a, &axis, axis.x(m.time) + 1.0, y).expect("a call");
        assert_eq!(a.marks[picked].row, m.row);
        assert!((axis.x(a.marks[picked].time) - axis.x(m.time)).abs() < 2.0);
        assert_eq!(mark_at(&a, &axis, axis.x(m.time), 1.0), None);
    }

    #[test]
    fn network_payloads_show_as_hex_and_text() {
        let l = loaded("activity");
        let a = build(&l.trace, ActivityKind::Network);
        let response = a
            .marks
            .iter()
            .filter(|m| m.api == "recv end")
            .find_map(|m| payload(&l, m).filter(|d| d.starts_with(b"HTTP/1.1 200")))
            .expect("an HTTP response");
        let text = as_text(&response);
        assert!(text.starts_with("HTTP/1.1 200 OK\nContent-Type: application/json\n"));
        let dump = hex_dump(&response);
        assert!(
            dump[0].starts_with("0000  48 54 54 50 2f 31 2e 31"),
            "{}",
            dump[0]
        );
        assert!(dump[0].ends_with("HTTP/1.1 200 OK."));
    }

    #[test]
    fn the_tables_columns_and_cells_agree() {
        let l = loaded("activity");
        for kind in [
            ActivityKind::Files,
            ActivityKind::Network,
            ActivityKind::Sync,
        ] {
            let a = build(&l.trace, kind);
            for s in summarize(&a, None) {
                assert_eq!(cells(&l, &a, &s).len(), columns(kind).len(), "{kind:?}");
            }
        }
    }

    #[test]
    fn a_sync_object_is_found_on_every_thread() {
        let l = loaded("activity");
        let a = build(&l.trace, ActivityKind::Sync);
        let mutex = a
            .rows
            .iter()
            .position(|r| r.object == "0x3005000")
            .expect("mutex");
        let same = same_object(&a, mutex as u32);
        assert_eq!(same.iter().filter(|s| **s).count(), 2);
        assert!(row_label(&l, &a, mutex).contains("0x3005000"));
    }
}
