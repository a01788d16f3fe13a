//! The Values view's and omniscient stepping's pure part (SELogger): the
//! steps and their keys, where a step from the selected event lands, the
//! locations the picker offers (data ids, variables, fields) and how a
//! search narrows them, the selected event's summary, and the numeric
//! chart's points. The history itself is `analysis::values::values`.

use flamedrop_core::analysis::values::{
    event_type, is_field_value, is_variable, last_write, locations, site_owner, value_text,
    Location, Stepper, ValueHistory,
};
use flamedrop_core::model::{EventLog, Trace};
use std::collections::BTreeMap;

/// A step through the selected event's thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepKind {
    Previous,
    Next,
    Into,
    Over,
    Out,
    BackOver,
    BackOut,
    LastWrite,
}

/// Every step, in the order the buttons show them.
pub const STEPS: [StepKind; 8] = [
    StepKind::Previous,
    StepKind::Next,
    StepKind::BackOut,
    StepKind::BackOver,
    StepKind::Into,
    StepKind::Over,
    StepKind::Out,
    StepKind::LastWrite,
];

impl StepKind {
    /// The name scripts use (`flamedrop.step(name)`).
    pub fn name(self) -> &'static str {
        match self {
            StepKind::Previous => "previous",
            StepKind::Next => "next",
            StepKind::Into => "into",
            StepKind::Over => "over",
            StepKind::Out => "out",
            StepKind::BackOver => "back-over",
            StepKind::BackOut => "back-out",
            StepKind::LastWrite => "last-write",
        }
    }

    /// The page key (none of them taken by another action).
    pub fn key(self) -> &'static str {
        match self {
            StepKind::Previous => ",",
            StepKind::Next => ".",
            StepKind::Into => "i",
            StepKind::Over => "o",
            StepKind::Out => "u",
            StepKind::BackOver => "O",
            StepKind::BackOut => "U",
            StepKind::LastWrite => "b",
        }
    }

    /// The button's text.
    pub fn label(self) -> &'static str {
        match self {
            StepKind::Previous => "◀ prev",
            StepKind::Next => "next ▶",
            StepKind::Into => "into",
            StepKind::Over => "over",
            StepKind::Out => "out",
            StepKind::BackOver => "back over",
            StepKind::BackOut => "back out",
            StepKind::LastWrite => "last write",
        }
    }

    /// What the step does (the button's title and the help).
    pub fn what(self) -> &'static str {
        match self {
            StepKind::Previous => "previous event of the thread",
            StepKind::Next => "next event of the thread",
            StepKind::Into => "step into: the next event, entering a called method",
            StepKind::Over => "step over: the next event of this method or its caller",
            StepKind::Out => "step out: the first event after this method returned",
            StepKind::BackOver => "step back over: the previous event of this method or its caller",
            StepKind::BackOut => "step back out: the caller's event before this method was entered",
            StepKind::LastWrite => {
                "last write of this value: the latest earlier write to the field or array element read"
            }
        }
    }

    pub fn from_name(name: &str) -> Option<StepKind> {
        STEPS.into_iter().find(|s| s.name() == name)
    }

    pub fn from_key(key: &str) -> Option<StepKind> {
        STEPS.into_iter().find(|s| s.key() == key)
    }
}

/// Where `kind` goes from the selected event `from`. Without one, a
/// forward step starts at the first event of `thread` (the selected call's
/// thread), else of the first thread with events.
pub fn step(
    log: &EventLog,
    stepper: &Stepper,
    from: Option<u32>,
    thread: Option<u32>,
    kind: StepKind,
) -> Option<u32> {
    let Some(from) = from.filter(|&e| (e as usize) < log.len()) else {
        let forward = matches!(
            kind,
            StepKind::Next | StepKind::Into | StepKind::Over | StepKind::Out
        );
        let first = |t: u32| stepper.thread_events(t).first().copied();
        let threads = log.threads().max().map_or(0, |t| t + 1);
        return forward
            .then(|| {
                thread
                    .and_then(first)
                    .or_else(|| (0..threads).find_map(first))
            })
            .flatten();
    };
    let steps = stepper.on(log);
    match kind {
        StepKind::Previous => steps.previous(from),
        StepKind::Next => steps.next(from),
        StepKind::Into => steps.step_into(from),
        StepKind::Over => steps.step_over(from),
        StepKind::Out => steps.step_out(from),
        StepKind::BackOver => steps.step_back_over(from),
        StepKind::BackOut => steps.step_back_out(from),
        StepKind::LastWrite => last_write(log, stepper, from),
    }
}

/// A location the picker offers.
#[derive(Clone, Debug, PartialEq)]
pub struct Pick {
    pub location: Location,
    /// What it is: `#12 LOCAL_STORE sum`, `variable sum`, `field demo.Bank.balance`.
    pub label: String,
    /// Where: `demo/Bank:deposit Bank.java:14` (a field: its class).
    pub place: String,
    /// How many values it has.
    pub count: u32,
}

/// The text form of a location (the picker's option values, scripts).
pub fn location_key(location: &Location) -> String {
    match location {
        Location::DataId(id) => format!("id:{id}"),
        Location::Variable { method, name } => format!("var:{method}:{name}"),
        Location::Field { owner, name } => format!("field:{owner}:{name}"),
    }
}

/// The location `key` names (the inverse of [`location_key`]).
pub fn location_of_key(key: &str) -> Option<Location> {
    let (kind, rest) = key.split_once(':')?;
    match kind {
        "id" => rest.parse().ok().map(Location::DataId),
        "var" => {
            let (method, name) = rest.split_once(':')?;
            Some(Location::Variable {
                method: method.parse().ok()?,
                name: name.to_owned(),
            })
        }
        "field" => {
            let (owner, name) = rest.split_once(':')?;
            Some(Location::Field {
                owner: owner.to_owned(),
                name: name.to_owned(),
            })
        }
        _ => None,
    }
}

/// Every location with values: each data id (by source file and line),
/// then each named variable (by method) and each field (by class).
pub fn picks(log: &EventLog) -> Vec<Pick> {
    let mut out = Vec::new();
    let mut variables: BTreeMap<(u32, String), (String, u32)> = BTreeMap::new();
    let mut fields: BTreeMap<(String, String), u32> = BTreeMap::new();
    for info in locations(log) {
        let name = info.name.clone();
        out.push(Pick {
            location: Location::DataId(info.data_id),
            label: match &name {
                Some(n) => format!("#{} {} {n}", info.data_id, info.event_type),
                None => format!("#{} {}", info.data_id, info.event_type),
            },
            place: format!("{} {}:{}", info.place, info.source, info.line),
            count: info.events,
        });
        let Some(name) = name else { continue };
        if is_variable(&info.event_type) {
            let entry = variables
                .entry((info.method, name))
                .or_insert((info.place.clone(), 0));
            entry.1 += info.events;
        } else if is_field_value(&info.event_type) {
            if let Some(owner) = site_owner(log, info.data_id) {
                *fields.entry((owner, name)).or_insert(0) += info.events;
            }
        }
    }
    out.extend(
        variables
            .into_iter()
            .map(|((method, name), (place, count))| Pick {
                label: format!("variable {name}"),
                location: Location::Variable { method, name },
                place,
                count,
            }),
    );
    out.extend(fields.into_iter().map(|((owner, name), count)| Pick {
        label: format!("field {owner}.{name}"),
        place: owner.clone(),
        location: Location::Field { owner, name },
        count,
    }));
    out
}

/// The picks whose label or place hold every word of `query` (any case),
/// at most `limit`, and how many matched in all.
pub fn filter_picks<'a>(picks: &'a [Pick], query: &str, limit: usize) -> (Vec<&'a Pick>, usize) {
    let words: Vec<String> = query.split_whitespace().map(str::to_lowercase).collect();
    let matches = |p: &&Pick| {
        let text = format!("{} {}", p.label, p.place).to_lowercase();
        words.iter().all(|w| text.contains(w.as_str()))
    };
    let found: Vec<&Pick> = picks.iter().filter(matches).collect();
    let total = found.len();
    (found.into_iter().take(limit).collect(), total)
}

/// The pick of `location`, if the trace has it.
pub fn pick_of<'a>(picks: &'a [Pick], location: &Location) -> Option<&'a Pick> {
    picks.iter().find(|p| &p.location == location)
}

/// What the page shows of the selected event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventSummary {
    pub event: u32,
    /// LogPrinter's EventId.
    pub seq: i64,
    /// The thread id as the recording names it.
    pub thread: String,
    pub data_id: u32,
    pub event_type: String,
    /// `Class:method` as LogPrinter prints it.
    pub place: String,
    pub line: i32,
    /// The value as LogPrinter prints it after `Value=`.
    pub value: String,
}

/// The summary of `event`, if the trace's event log has it.
pub fn describe(trace: &Trace, event: u32) -> Option<EventSummary> {
    let log = &trace.event_log;
    let site = log.site_of(event as usize)?;
    let thread = log.thread_of(event as usize)?;
    let method = log.site_method.get(site as usize).copied();
    let place = method
        .and_then(|m| log.method_place.get(m as usize))
        .map_or(String::new(), |&id| log.text(id).to_owned());
    Some(EventSummary {
        event,
        seq: log.seq_of(event as usize),
        thread: trace
            .threads
            .get(thread as usize)
            .map_or_else(|| thread.to_string(), |t| t.id.clone()),
        data_id: site,
        event_type: event_type(log, site).to_owned(),
        place,
        line: log.site_line.get(site as usize).map_or(0, |&l| l as i32),
        value: value_text(log, event as usize),
    })
}

/// One numeric value on the chart, in CSS px of its box.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChartPoint {
    pub x: f64,
    pub y: f64,
    pub event: u32,
}

/// Inner margins of the chart: left (room for the axis labels), top, right, bottom.
pub const CHART_MARGIN: (f64, f64, f64, f64) = (64.0, 8.0, 8.0, 8.0);

/// The numeric values of `history` placed in a `width` × `height` box: one
/// step to the right per value (in event order), the range from min
/// (bottom) to max (top); all in the middle when they are equal.
pub fn chart_points(history: &ValueHistory, width: f64, height: f64) -> Vec<ChartPoint> {
    let (left, top, right, bottom) = CHART_MARGIN;
    let numeric: Vec<(u32, f64)> = history
        .points
        .iter()
        .filter_map(|p| Some((p.event, p.number?)))
        .collect();
    let (Some(min), Some(max)) = (history.min, history.max) else {
        return Vec::new();
    };
    let inner_w = (width - left - right).max(1.0);
    let inner_h = (height - top - bottom).max(1.0);
    let last = numeric.len().saturating_sub(1).max(1) as f64;
    numeric
        .iter()
        .enumerate()
        .map(|(i, &(event, n))| ChartPoint {
            x: left + inner_w * i as f64 / last,
            y: if max > min {
                top + inner_h * (max - n) / (max - min)
            } else {
                top + inner_h / 2.0
            },
            event,
        })
        .collect()
}

/// The point nearest to `x` (a click on the chart).
pub fn chart_hit(points: &[ChartPoint], x: f64) -> Option<u32> {
    points
        .iter()
        .min_by(|a, b| (a.x - x).abs().total_cmp(&(b.x - x).abs()))
        .map(|p| p.event)
}

/// A number as the stats and the axis print it: integers without a point.
pub fn number_text(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        format!("{n}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flamedrop_core::analysis::values::ValuePoint;
    use flamedrop_core::model::site_role;

    #[test]
    fn every_step_has_its_own_free_key_and_a_name_that_reads_back() {
        let taken = [
            "1", "2", "3", "4", "5", "6", "7", "8", "9", "t", "l", "v", "e", "m", "M", "f", "F",
            "S", "c", "C", "r", "R", "d", "n", "N", "?", "/", "w", "a", "s", "W", "A", "D", "0",
        ];
        for (i, s) in STEPS.iter().enumerate() {
            assert!(!taken.contains(&s.key()), "{:?}", s);
            assert_eq!(StepKind::from_key(s.key()), Some(*s));
            assert_eq!(StepKind::from_name(s.name()), Some(*s));
            assert!(STEPS[..i].iter().all(|o| o.key() != s.key()));
        }
    }

    /// Sites: 0 entry of method 0, 1 call in method 0, 2 entry of method 1,
    /// 3 line in method 1, 4 exit of method 1, 5 exit of method 0.
    fn log() -> EventLog {
        use site_role::*;
        let mut log = EventLog {
            site_role: vec![ENTRY, CALL, ENTRY, PLAIN, EXIT, EXIT],
            site_method: vec![0, 0, 1, 1, 1, 0],
            ..EventLog::default()
        };
        for (at, (thread, site)) in [(1, 0), (0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (0, 5)]
            .into_iter()
            .enumerate()
        {
            log.push(at as i64, thread, site, 0);
        }
        log
    }

    #[test]
    fn steps_start_at_the_threads_first_event_and_follow_the_frames() {
        let log = log();
        let stepper = Stepper::new(&log);
        assert_eq!(step(&log, &stepper, None, Some(0), StepKind::Next), Some(1));
        assert_eq!(step(&log, &stepper, None, None, StepKind::Next), Some(1));
        assert_eq!(step(&log, &stepper, None, Some(1), StepKind::Into), Some(0));
        assert_eq!(step(&log, &stepper, None, None, StepKind::Previous), None);
        assert_eq!(step(&log, &stepper, Some(2), None, StepKind::Over), Some(6));
        assert_eq!(step(&log, &stepper, Some(2), None, StepKind::Into), Some(3));
        assert_eq!(step(&log, &stepper, Some(4), None, StepKind::Out), Some(6));
        assert_eq!(
            step(&log, &stepper, Some(4), None, StepKind::BackOut),
            Some(2)
        );
        assert_eq!(
            step(&log, &stepper, Some(6), None, StepKind::BackOver),
            Some(2)
        );
        assert_eq!(
            step(&log, &stepper, Some(3), None, StepKind::Previous),
            Some(2)
        );
        assert_eq!(step(&log, &stepper, Some(6), None, StepKind::Next), None);
    }

    #[test]
    fn location_keys_read_back() {
        for location in [
            Location::DataId(12),
            Location::Variable {
                method: 3,
                name: "sum".into(),
            },
            Location::Field {
                owner: "demo.Bank".into(),
                name: "balance".into(),
            },
        ] {
            assert_eq!(location_of_key(&location_key(&location)), Some(location));
        }
        assert_eq!(location_of_key("id:x"), None);
        assert_eq!(location_of_key("nothing"), None);
    }

    #[test]
    fn every_word_of_the_search_must_match() {
        let pick = |label: &str, place: &str| Pick {
            location: Location::DataId(0),
            label: label.into(),
            place: place.into(),
            count: 1,
        };
        let picks = [
            pick("#1 LOCAL_STORE sum", "demo/A:run A.java:3"),
            pick("#2 LOCAL_LOAD sum", "demo/B:run B.java:9"),
            pick("field demo.A.total", "demo.A"),
        ];
        let (found, total) = filter_picks(&picks, "SUM b.java", 10);
        assert_eq!((found.len(), total), (1, 1));
        assert_eq!(found[0].label, "#2 LOCAL_LOAD sum");
        let (found, total) = filter_picks(&picks, "", 2);
        assert_eq!((found.len(), total), (2, 3));
    }

    fn point(event: u32, number: Option<f64>) -> ValuePoint {
        ValuePoint {
            event,
            seq: i64::from(event),
            thread: 0,
            data_id: 0,
            text: number.map_or("x".into(), |n| n.to_string()),
            number,
            detail: None,
        }
    }

    #[test]
    fn the_chart_spans_the_box_from_min_at_the_bottom_to_max_at_the_top() {
        let history = ValueHistory {
            points: vec![point(4, Some(1.0)), point(5, None), point(9, Some(3.0))],
            min: Some(1.0),
            max: Some(3.0),
            ..ValueHistory::default()
        };
        let points = chart_points(&history, 264.0, 116.0);
        let (left, top, right, bottom) = CHART_MARGIN;
        assert_eq!(points.len(), 2);
        assert_eq!((points[0].x, points[0].y), (left, 116.0 - bottom));
        assert_eq!((points[1].x, points[1].y), (264.0 - right, top));
        assert_eq!(chart_hit(&points, 250.0), Some(9));
        assert_eq!(chart_hit(&[], 1.0), None);
        assert_eq!(number_text(3.0), "3");
        assert_eq!(number_text(2.5), "2.5");
    }
}
