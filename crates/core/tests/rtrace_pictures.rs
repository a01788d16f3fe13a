//! sp-rtrace's pictures while it decodes (`Decoder::preview`, made from the
//! session's calls: `formats/rtrace/picture.rs`): a picture of part of a
//! recording is the finished trace's call lane over that stretch, thinned
//! to the preview's resolution (one call per time bucket), whether one
//! worker reads the file or two read it in parts that part 0 joins.

mod common;

use common::rtrace_file;
use flamedrop_core::input::{open_decoder, probes_of, Decoder};
use flamedrop_core::model::{PreviewCursor, PreviewLimits, Thread};
use flamedrop_core::{decode_files, Format, TimeUnit, Trace};

/// The c-leaks recording with its calls repeated to about `bytes` (as
/// `bench/make-big.js` grows it): thousands of calls, so that the pictures
/// thin them.
fn grown(bytes: usize) -> Vec<(String, Vec<u8>)> {
    let (name, data) = rtrace_file("c-leaks");
    let handshake = (2 + usize::from(data[1])).min(data.len());
    let body = data[handshake..].to_vec();
    let mut long = data.clone();
    while long.len() < bytes {
        long.extend_from_slice(&body);
    }
    vec![(name, long)]
}

/// A span as drawn: start, end, name, depth, flags.
type Drawn = (i64, i64, String, u16, u8);

fn drawn(trace: &Trace, thread: &Thread) -> Vec<Drawn> {
    let s = &thread.spans;
    (0..s.len())
        .map(|i| {
            let name = trace.strings.get(s.name[i]).to_owned();
            (s.start[i], s.end[i], name, s.depth[i], s.flags[i])
        })
        .collect()
}

/// The finished lane's first `count` spans thinned by the preview's rule
/// (`TraceBuilder::preview`): a span one bucket long or longer, or the
/// first starting a bucket past the last kept.
fn thinned(lane: &[Drawn], count: usize, bucket: i64) -> Vec<Drawn> {
    let mut free = i64::MIN;
    let mut out = Vec::new();
    for span in &lane[..count] {
        if span.1 - span.0 >= bucket || span.0 >= free {
            free = span.1.max(span.0 + bucket);
            out.push(span.clone());
        }
    }
    out
}

/// The finished trace and its one lane, as drawn.
fn finished(files: &[(String, Vec<u8>)]) -> (Trace, Vec<Drawn>) {
    let trace = decode_files(files).expect("decodes");
    assert_eq!(trace.threads.len(), 1, "sp-rtrace draws one lane");
    let lane = drawn(&trace, &trace.threads[0]);
    (trace, lane)
}

/// The picture's buckets: four times [`PreviewLimits`]' (`picture.rs`:
/// sub-pixel calls a pixel apart at most merge into the band the finished
/// lane draws).
const BUCKETS: i64 = 4 * 1024;

/// Checks `picture` against the finished trace: the same process and lane,
/// and exactly the finished lane's spans over the calls decoded so far,
/// thinned at the picture's resolution. The calls it drew.
fn check(picture: &Trace, whole: &Trace, lane: &[Drawn]) -> usize {
    assert_eq!(i64::from(PreviewLimits::default().buckets) * 4, BUCKETS);
    assert_eq!(picture.format, Some(Format::SpRtrace));
    assert_eq!(picture.time_unit, Some(TimeUnit::Events));
    let processes = |t: &Trace| -> Vec<(String, String)> {
        t.processes
            .iter()
            .map(|p| (p.id.clone(), p.name.clone()))
            .collect()
    };
    assert_eq!(processes(picture), processes(whole));
    let (thread, done) = (&picture.threads[0], &whole.threads[0]);
    assert_eq!(picture.threads.len(), 1);
    assert_eq!((&thread.id, &thread.name), (&done.id, &done.name));
    let count = thread.events as usize;
    assert!(count <= lane.len());
    let spans = drawn(picture, thread);
    if count == 0 {
        assert!(spans.is_empty());
        return 0;
    }
    assert_eq!(thread.time_range(), Some((1, count as i64 + 1)));
    let bucket = ((count as i64) / BUCKETS).max(1);
    assert_eq!(spans, thinned(lane, count, bucket), "{count} calls");
    // One call per bucket, none left out: a picture's size depends on the
    // buckets, not on the calls decoded.
    let starts: Vec<i64> = spans.iter().map(|s| s.0).collect();
    assert_eq!(starts[0], 1);
    assert!(starts.windows(2).all(|w| w[1] - w[0] == bucket));
    assert!(count as i64 + 1 - starts[starts.len() - 1] <= bucket);
    assert!(spans.len() <= 2 * BUCKETS as usize);
    spans.len()
}

#[test]
fn a_picture_of_part_of_a_recording_is_its_finished_lane_at_the_picture_resolution() {
    let files = grown(2_000_000);
    let (whole, lane) = finished(&files);
    assert!(lane.len() > 20_000, "{} calls only", lane.len());
    let limits = PreviewLimits::default();
    let mut decoder = open_decoder(probes_of(&files)).expect("opens");
    assert_eq!(decoder.plan(), [0]);
    // The worker's way: one cursor (sp-rtrace needs none), a picture after
    // every chunk.
    let mut cursor = PreviewCursor::default();
    decoder.begin_file(0);
    let mut seen = 0;
    let mut drawn_most = 0;
    for chunk in files[0].1.chunks(16 << 10) {
        decoder.feed(chunk);
        let picture = decoder.preview(&mut cursor, &limits).expect("a picture");
        let count = picture.threads[0].events as usize;
        assert!(count >= seen, "the calls drawn went back");
        seen = count;
        drawn_most = drawn_most.max(check(&picture, &whole, &lane));
    }
    decoder.end_file();
    let last = decoder.preview(&mut cursor, &limits).expect("a picture");
    assert_eq!(last.threads[0].events as usize, lane.len());
    assert_eq!(last.threads[0].time_range(), whole.threads[0].time_range());
    check(&last, &whole, &lane);
    // The calls were thinned: the last pictures drew one in several.
    assert!(
        drawn_most < lane.len() / 2,
        "{drawn_most} of {}",
        lane.len()
    );
}

#[test]
fn a_joined_decode_draws_part_0_then_the_whole_input_once_joined() {
    let files = grown(2_000_000);
    let (whole, lane) = finished(&files);
    let limits = PreviewLimits::default();
    let mut parts: Vec<Box<dyn Decoder>> = (0..2)
        .map(|part| {
            let mut d = open_decoder(probes_of(&files)).expect("opens");
            assert!(d.keep_part(part, 2) && d.joins_parts());
            d
        })
        .collect();
    let mut cursor = PreviewCursor::default();
    let mut drawn_by_part_0 = 0;
    for (part, decoder) in parts.iter_mut().enumerate() {
        decoder.begin_file(0);
        let from = decoder.start_of(0) as usize;
        for chunk in files[0].1[from..].chunks(5000) {
            decoder.feed(chunk);
            match part {
                // Part 0's calls are numbered from the start of the file.
                0 => {
                    let picture = decoder.preview(&mut cursor, &limits).expect("a picture");
                    drawn_by_part_0 = picture.threads[0].events as usize;
                    check(&picture, &whole, &lane);
                }
                // Part 1's are numbered only once joined: no picture.
                _ => assert!(decoder
                    .preview(&mut PreviewCursor::default(), &limits)
                    .is_none()),
            }
            if decoder.has_enough() {
                break;
            }
        }
        decoder.end_file();
    }
    assert!(drawn_by_part_0 > 0 && drawn_by_part_0 < lane.len());
    let second = parts.pop().expect("part 1");
    let mut first = parts.pop().expect("part 0");
    first.take_over(second.hand_over()).expect("joins");
    // Once joined, the same cursor draws the whole input.
    let joined = first.preview(&mut cursor, &limits).expect("a picture");
    assert_eq!(joined.threads[0].events as usize, lane.len());
    check(&joined, &whole, &lane);
    // And the trace built after the pictures is the one decoded whole.
    let built = first.finish();
    assert!(
        flamedrop_core::model::codec::encode(&built)
            == flamedrop_core::model::codec::encode(&whole)
    );
}
