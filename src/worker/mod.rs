//! The decoding Web Worker (the `worker` binary): only what runs inside the
//! worker. The page's handle on it is `loading::client`; `wire::protocol` is
//! what they say to each other.
//!
//! Wait for a [`DecodeRequest`], expand archives
//! ([`archives`]), probe each file's
//! first bytes, open the matching decoder, feed it the planned files in
//! `Blob.slice` chunks while reporting progress, then hand the trace to the
//! page: its big columns as transferred typed arrays (`wire::columns`), the rest
//! encoded by `model::codec`; or, in the shared-memory build, left in place
//! for the page to take over (`wire::handover`).

pub mod archives;
mod join;
pub mod preview;
pub mod reader;
pub mod saved;

use crate::wire::columns;
use crate::wire::handover::{Handover, SHARED_MEMORY};
use crate::wire::join::JoinSlot;
use crate::wire::protocol::{from_js, to_js, DecodeRequest, InputFile, Phases, WorkerEvent};
use flamedrop_core::input::{open_decoder, Decoder, FileProbe, PROBE_BYTES};
use flamedrop_core::model::codec;
use flamedrop_core::Trace;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

/// Chunk size for reading files. The browser fills a blob stream's pipe
/// (2 MiB in Chromium) in another process while the decoder works on the
/// last chunk, but only up to the pipe's size: a chunk well below that is
/// ready when asked for, where an 8 MiB chunk left the worker waiting for
/// most of each read (a quarter of the SELogger worker's time); 1 MiB
/// decoded 5–10 % faster than 512 KiB, with no more memory (session 14).
/// Each chunk is held up to three times (the reader's buffer, the copy in
/// wasm memory and the decoder's carry-over).
const CHUNK_BYTES: u32 = 1 << 20;

/// Progress is posted after this many bytes (and at every file), not per
/// chunk: each message costs the page a redraw of the progress bar.
const PROGRESS_BYTES: f64 = (8 << 20) as f64;

/// Entry point of the worker binary: listen for requests, then say we're ready.
pub fn start() {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(|event: MessageEvent| {
        wasm_bindgen_futures::spawn_local(handle(event.data()));
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The worker lives as long as its page wants it: the handler is never dropped.
    on_message.forget();
    post(&WorkerEvent::Ready);
}

async fn handle(data: JsValue) {
    let started = now();
    let mut clock = Clock::new();
    let request = from_js::<DecodeRequest>(data);
    // SAFETY: only the shared-memory build's page sends addresses, made by
    // `Handover::share` and `JoinSlot::share` for this one job.
    let (handover, join_slot) = match &request {
        Ok(r) if SHARED_MEMORY => (
            r.handover.map(|a| unsafe { Handover::adopt(a) }),
            r.join.map(|a| unsafe { JoinSlot::adopt(a) }),
        ),
        _ => (None, None),
    };
    let outcome = match request {
        // A `.flamedrop` file holds a decoded trace and the screen it was on.
        Ok(request) => match saved::reopen(&request).await {
            Some(reopened) => reopened.map(|r| match r {
                Some((trace, screen)) => Decoded::Trace {
                    trace: Box::new(trace),
                    joined: 0,
                    reopened: Some(screen),
                },
                None => Decoded::NotSplit,
            }),
            None => {
                let job = Job {
                    handover: handover.as_deref(),
                    join_slot: join_slot.as_deref(),
                    started,
                };
                decode(request, &job, &mut clock).await
            }
        },
        Err(e) => Err(e),
    };
    // Part 1 of a joined decode is over whatever happened: part 0 stops
    // waiting for it (and decodes the input whole when nothing was left).
    if let Some(slot) = &join_slot {
        slot.close();
    }
    drop(join_slot);
    answer(outcome, handover.as_deref(), clock, started);
    drop(handover);
    if SHARED_MEMORY {
        close_when_done();
    }
}

/// Tells the page how the job ended.
fn answer(
    outcome: Result<Decoded, String>,
    handover: Option<&Handover>,
    clock: Clock,
    started: f64,
) {
    match outcome {
        Ok(Decoded::NotSplit) => post(&WorkerEvent::NotSplit),
        Ok(Decoded::HandedOver { read, total }) => post(&WorkerEvent::HandedOver {
            read,
            total,
            worker_ms: now() - started,
            phases: clock.phases,
        }),
        Ok(Decoded::Trace {
            trace,
            joined,
            reopened,
        }) => match handover {
            Some(handover) => {
                handover.leave(*trace);
                post(&WorkerEvent::Left {
                    worker_ms: now() - started,
                    phases: clock.phases,
                    reopened,
                    joined,
                });
            }
            None => hand_over_copied(*trace, (clock, started, joined), reopened),
        },
        Err(message) => post(&WorkerEvent::Failed { message }),
    }
}

/// Hands the trace to the page as a copy: its big columns as transferred
/// typed arrays, the rest encoded by `model::codec`.
fn hand_over_copied(
    mut trace: Trace,
    (mut clock, started, joined): (Clock, f64, u32),
    reopened: Option<String>,
) {
    let columns = columns::detach(&mut trace);
    clock.lap("worker columns");
    let bytes = codec::encode(&trace);
    drop(trace);
    let array = js_sys::Uint8Array::new_with_length(bytes.len() as u32);
    array.copy_from(&bytes);
    drop(bytes);
    clock.lap("worker encode");
    let buffer = array.buffer();
    let transfer = columns::buffers(&columns);
    transfer.push(&buffer);
    let event = WorkerEvent::Done {
        trace: buffer,
        columns,
        worker_ms: now() - started,
        phases: clock.phases,
        reopened,
        joined,
    };
    post_transfer(&event, &transfer);
}

/// A worker of the shared-memory build ends itself once its job is over
/// (see `wire::handover` for why the page does not): `www/worker-shared.js`
/// frees its stack and closes it after this call has returned.
fn close_when_done() {
    let done = js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("flamedropWorkerDone"));
    if let Ok(done) = done.and_then(|f| f.dyn_into::<js_sys::Function>()) {
        let _ = done.call0(&JsValue::UNDEFINED);
    }
}

/// What a job gives: a trace, nothing (another part decodes the input), or
/// part 1's hand-over, left in the load's join slot.
enum Decoded {
    Trace {
        trace: Box<Trace>,
        /// Other parts' hand-overs joined in.
        joined: u32,
        /// The saved screen of a reopened `.flamedrop` file.
        reopened: Option<String>,
    },
    NotSplit,
    HandedOver {
        read: f64,
        total: f64,
    },
}

/// What a job has besides its request: where it meets the page and the
/// other part (the shared-memory build), and when it started.
struct Job<'a> {
    handover: Option<&'a Handover>,
    join_slot: Option<&'a JoinSlot>,
    started: f64,
}

impl Job<'_> {
    /// Whether the page gave up on this job.
    fn cancelled(&self) -> bool {
        self.handover.is_some_and(Handover::cancelled)
    }
}

/// Reads and decodes the files (or the requested part of them).
async fn decode(
    request: DecodeRequest,
    job: &Job<'_>,
    clock: &mut Clock,
) -> Result<Decoded, String> {
    let (files, archive_notes) = archives::expand(request.files).await?;
    let mut decoder = open_decoder(probe(&files).await?).map_err(|e| e.to_string())?;
    clock.lap("worker open");
    let (part, parts) = (request.part as usize, request.parts as usize);
    // The part dialog's choice is kept before the parts are shared out.
    let selection = &request.selection;
    if !selection.keeps_everything() && !decoder.keep_only(selection) {
        return Err(format!(
            "{} traces cannot be loaded in part (only some threads or a time window)",
            decoder.format().name()
        ));
    }
    // A split that would cost more than it saves is not made: part 0
    // decodes it all (`Decoder::parts_pay_off`).
    let pays_off = decoder.parts_pay_off() || request.split_anyway;
    if parts > 1 && !pays_off && part > 0 {
        return Ok(Decoded::NotSplit);
    }
    // Does another worker post pictures of the same load?
    let mut beat = preview::Beat::Alone;
    if parts > 1 && pays_off {
        let split = decoder.keep_part(part, parts);
        beat = preview::Beat::when_shared(split && !decoder.joins_parts());
        if split && decoder.joins_parts() {
            match job.join_slot {
                // The shared-memory build: the parts meet in the join slot.
                Some(slot) => {
                    let joint = join::Joint {
                        slot,
                        part,
                        parts,
                        preview: request.preview,
                    };
                    return match joint.decode(decoder, &files, selection, job, clock).await? {
                        join::Ready::HandedOver { read, total } => {
                            Ok(Decoded::HandedOver { read, total })
                        }
                        join::Ready::NotSplit => Ok(Decoded::NotSplit),
                        join::Ready::ToFinish(decoder, joined) => {
                            finish(decoder, (part, joined), archive_notes, clock)
                        }
                    };
                }
                // The copying build: part 0 decodes it all.
                None if part > 0 => return Ok(Decoded::NotSplit),
                None => {
                    decoder = open_decoder(probe(&files).await?).map_err(|e| e.to_string())?;
                    decoder.keep_only(selection);
                }
            }
        } else if !split && part > 0 {
            return Ok(Decoded::NotSplit);
        }
    }
    let mut previews = preview::Previews::new(request.preview, job.started, beat);
    let cancelled = || job.cancelled();
    let (read, total) = feed(
        decoder.as_mut(),
        &files,
        None,
        clock,
        &mut previews,
        &cancelled,
    )
    .await?;
    post_building(read, total);
    finish(decoder, (part, 0), archive_notes, clock)
}

/// Says that the bytes are read and the trace is being built.
fn post_building(read: f64, total: f64) {
    post(&WorkerEvent::Progress {
        read,
        total,
        file: crate::wire::protocol::BUILDING.to_owned(),
    });
}

/// Builds the trace of a decoder fed all it needs.
fn finish(
    decoder: Box<dyn Decoder>,
    (part, joined): (usize, u32),
    archive_notes: Vec<flamedrop_core::model::Diagnostic>,
    clock: &mut Clock,
) -> Result<Decoded, String> {
    let mut trace = decoder.finish();
    clock.lap("worker finish");
    if part == 0 {
        trace.diagnostics.extend(archive_notes);
    }
    Ok(Decoded::Trace {
        trace: Box::new(trace),
        joined,
        reopened: None,
    })
}

/// Each file's path, size and first bytes, for recognising the format.
async fn probe(files: &[InputFile]) -> Result<Vec<FileProbe>, String> {
    let blobs: Vec<&web_sys::Blob> = files.iter().map(|f| &f.blob).collect();
    // Every head is asked for at once: one after the other, a recording's
    // dozen small reads cost tens of ms.
    let heads = match reader::read_heads(&blobs, PROBE_BYTES as f64).await {
        Ok(heads) if heads.len() == files.len() => heads,
        _ => {
            // Read them one by one to say which file could not be read.
            let mut heads = Vec::with_capacity(files.len());
            for file in files {
                let mut head = Vec::new();
                let len = file.size().min(PROBE_BYTES as f64);
                reader::read_into(&file.blob, 0.0, len, &mut head)
                    .await
                    .map_err(|e| format!("could not read {}: {e}", file.path))?;
                heads.push(head);
            }
            heads
        }
    };
    Ok(files
        .iter()
        .zip(heads)
        .map(|(file, head)| FileProbe {
            path: file.path.clone(),
            size: file.size() as u64,
            head,
        })
        .collect())
}

/// Feeds the decoder the files it plans to read, in chunks, reporting
/// progress; (bytes read, bytes planned).
async fn feed(
    decoder: &mut dyn Decoder,
    files: &[InputFile],
    stretch: Option<(usize, usize)>,
    clock: &mut Clock,
    previews: &mut preview::Previews,
    cancelled: &dyn Fn() -> bool,
) -> Result<(f64, f64), String> {
    let plan = decoder.plan();
    let total: f64 = plan
        .iter()
        .enumerate()
        .filter_map(|(at, &i)| Some(planned_bytes(files.get(i)?, at, stretch)))
        .sum();
    let mut read = 0.0;
    let mut chunk = Vec::new();
    // Reading (waiting for the browser, copying into wasm memory) and
    // decoding alternate; each is summed over the chunks.
    let (mut reading_ms, mut feeding_ms) = (0.0, 0.0);
    post(&WorkerEvent::Progress {
        read,
        total,
        file: String::new(),
    });
    for index in plan {
        let Some(file) = files.get(index) else {
            continue;
        };
        let at = now();
        decoder.begin_file(index);
        feeding_ms += now() - at;
        post(&WorkerEvent::Progress {
            read,
            total,
            file: file.path.clone(),
        });
        let failed = |e: String| format!("could not read {}: {e}", file.path);
        let blob = reader::from_byte(&file.blob, decoder.start_of(index)).map_err(failed)?;
        let mut reader = reader::ChunkReader::new(&blob, CHUNK_BYTES);
        let mut posted = read;
        loop {
            let at = now();
            let more = reader.next(&mut chunk).await.map_err(failed)?;
            let fed = now();
            reading_ms += fed - at;
            if !more {
                break;
            }
            if cancelled() {
                return Err("cancelled".to_owned());
            }
            decoder.feed(&chunk);
            feeding_ms += now() - fed;
            previews.tick(decoder);
            read += chunk.len() as f64;
            if read - posted >= PROGRESS_BYTES {
                posted = read;
                post(&WorkerEvent::Progress {
                    read,
                    total,
                    file: file.path.clone(),
                });
            }
            if decoder.has_enough() {
                break;
            }
        }
        let at = now();
        decoder.end_file();
        feeding_ms += now() - at;
    }
    clock.add("worker read", reading_ms);
    clock.add("worker feed", feeding_ms);
    if previews.spent_ms > 0.0 {
        clock.add("worker previews", previews.spent_ms);
    }
    Ok((read, total))
}

/// The bytes of `file`, the `at`-th planned, that this part will read: all
/// of it, or for a part of a byte-range split (`stretch`: part, parts; a
/// joining decoder splits its first planned file) its nominal share.
fn planned_bytes(file: &InputFile, at: usize, stretch: Option<(usize, usize)>) -> f64 {
    match stretch {
        Some((part, parts)) if at == 0 && parts > 0 => {
            let nominal = |k: usize| (file.size() * k as f64 / parts as f64).floor();
            nominal(part + 1) - nominal(part)
        }
        _ => file.size(),
    }
}

/// Times the worker's phases for [`WorkerEvent::Done`].
struct Clock {
    phases: Phases,
    /// When the last phase ended.
    last: f64,
}

impl Clock {
    fn new() -> Clock {
        Clock {
            phases: Vec::new(),
            last: now(),
        }
    }

    /// A phase that ran from the last one's end until now.
    fn lap(&mut self, name: &str) {
        let at = now();
        self.phases.push((name.to_owned(), at - self.last));
        self.last = at;
    }

    /// Phases that interleaved (summed by the caller) and end now.
    fn add(&mut self, name: &str, ms: f64) {
        self.phases.push((name.to_owned(), ms));
        self.last = now();
    }
}

fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

pub(crate) fn now() -> f64 {
    scope().performance().map_or(0.0, |p| p.now())
}

fn post(event: &WorkerEvent) {
    if let Ok(value) = to_js(event) {
        // Posting only fails for values that cannot be cloned; ours always can.
        let _ = scope().post_message(&value);
    }
}

pub(crate) fn post_transfer(event: &WorkerEvent, transfer: &js_sys::Array) {
    match to_js(event) {
        Ok(value) => {
            if let Err(e) = scope().post_message_with_transfer(&value, transfer) {
                post(&WorkerEvent::Failed {
                    message: format!("could not hand the trace to the page: {e:?}"),
                });
            }
        }
        Err(message) => post(&WorkerEvent::Failed { message }),
    }
}
