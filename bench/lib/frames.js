// The scripted zoom/pan/hover sequence, run inside the page (page.evaluate(runFrames, opts)).
//
// From the whole trace, 60 steps: two zooms in then one pan, over and over, each zoom by
// `zoomPerStep` around the chart's centre, so 40 zooms take the window from the whole trace
// down to single calls (1.5^40 ≈ 1.1e7: 1.7 s → ~150 ns for the 20M-record uftrace trace).
// Every step also moves the pointer to another row of the busiest lane (hover and tooltip).
//
// Each step: wait for a frame boundary, dispatch the wheel and pointer events, let the page's
// handlers and microtasks run (input time), then wait for the frame the page asked for and for
// a task queued behind its rendering (frame time = its begin → that task). A step's time is
// input + frame: the main-thread time between the user's gesture and the new picture.
//
// With `pictures: true` each step also records a hash of every row of pixels of every canvas on
// the page after its frame (bench/same-picture.js compares two builds so), and the first entry
// holds the picture before the first step.
'use strict';

async function runFrames({ steps = 60, zoomPerStep = 1.5, wheelZoomPerPx = 0.0025, pictures = false }) {
  const bench = window.__bench;
  const nextFrame = () => new Promise((r) => bench.raf(r));
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const canvas = document.querySelector('canvas#flamechart');
  if (!canvas) throw new Error('no canvas#flamechart');
  const rect = canvas.getBoundingClientRect();
  const lanes = (await window.flamedrop.lanes()).filter((l) => l.height > 40);
  const lane = lanes.sort((a, b) => b.height - a.height)[0] || { top: 0, height: rect.height };
  const rowsTop = Math.max(0, lane.top) + 30;
  const rowsBottom = Math.min(rect.height - 10, lane.top + lane.height - 10);
  const dy = -Math.log(zoomPerStep) / wheelZoomPerPx; // the chart zooms by exp(-dy * 0.0025)
  const rowHashes = () =>
    [...document.querySelectorAll('canvas')].map((c) => {
      const g = c.getContext('2d');
      if (!g || !c.width || !c.height) return [];
      const d = new Uint32Array(g.getImageData(0, 0, c.width, c.height).data.buffer);
      const rows = [];
      for (let y = 0; y < c.height; y++) {
        let h = 0x811c9dc5;
        for (let x = y * c.width, end = x + c.width; x < end; x++) h = Math.imul(h ^ d[x], 0x01000193) >>> 0;
        rows.push(h);
      }
      return rows;
    });
  const out = [];
  if (pictures) out.push({ step: -1, pictures: rowHashes() });
  for (let i = 0; i < steps; i++) {
    await nextFrame();
    const before = bench.frames.length;
    const x = rect.width / 2;
    const hoverX = rect.width * (0.3 + 0.4 * ((i * 7) % 10) / 10);
    const hoverY = rowsTop + ((i * 18) % Math.max(18, rowsBottom - rowsTop));
    const pan = i % 3 === 2;
    const t0 = performance.now();
    canvas.dispatchEvent(
      new WheelEvent('wheel', {
        bubbles: true,
        cancelable: true,
        clientX: rect.left + x,
        clientY: rect.top + hoverY,
        deltaMode: 0,
        deltaX: pan ? (i % 2 ? 120 : -120) : 0,
        deltaY: pan ? 0 : dy,
      }),
    );
    canvas.dispatchEvent(
      new PointerEvent('pointermove', {
        bubbles: true,
        clientX: rect.left + hoverX,
        clientY: rect.top + hoverY,
        pointerId: 1,
        pointerType: 'mouse',
        isPrimary: true,
      }),
    );
    for (let k = 0; k < 4; k++) await Promise.resolve();
    const t1 = performance.now();
    let frame;
    for (let wait = 0; wait < 400; wait++) {
      frame = bench.frames.slice(before).find((f) => f.start >= t0 && f.done > 0);
      if (frame) break;
      await sleep(5);
    }
    if (!frame) {
      out.push({ step: i, kind: pan ? 'pan' : 'zoom', input: t1 - t0, frame: NaN });
      continue;
    }
    out.push({
      step: i,
      kind: pan ? 'pan' : 'zoom',
      input: t1 - t0,
      script: Math.max(frame.end, frame.settled) - frame.start,
      frame: frame.done - Math.max(frame.ts, t1),
      total: t1 - t0 + (frame.done - Math.max(frame.ts, t1)),
    });
    if (pictures) out[out.length - 1].pictures = rowHashes();
  }
  return out;
}

module.exports = { runFrames };
