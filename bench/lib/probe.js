// Instruments a page before any of its scripts run (Playwright init script; it runs through the
// DevTools protocol, so the page's CSP does not apply). It records:
//   window.__bench.longtasks  main-thread tasks over 50 ms ({start, duration}, ms since navigation)
//   window.__bench.frames     per animation frame the page asked for: {ts, start, end, settled, done}
//                             ts = the frame's begin time, start/end = around the page's callback,
//                             settled = after the microtasks it queued (where Yew does the work),
//                             done = when a task queued behind the frame's rendering ran
//   window.__bench.progress   the largest value seen on <progress id="progress">, and its max
//   window.__bench.cancel     whether a #cancel button was seen while loading
// and offers window.__bench.raf (the unwrapped requestAnimationFrame) to the benchmark itself.
'use strict';

function probe() {
  const bench = {
    longtasks: [],
    frames: [],
    progress: { value: 0, max: 0, updates: 0 },
    cancel: false,
    raf: window.requestAnimationFrame.bind(window),
  };
  window.__bench = bench;
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) bench.longtasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    // no long task API: the benchmark reports "n/a"
  }
  const channel = new MessageChannel();
  const waiting = [];
  channel.port1.onmessage = () => {
    const frame = waiting.shift();
    if (frame) frame.done = performance.now();
  };
  window.requestAnimationFrame = (callback) =>
    bench.raf((ts) => {
      const frame = { ts, start: performance.now(), end: 0, settled: 0, done: 0 };
      try {
        callback(ts);
      } finally {
        frame.end = performance.now();
        // Work the callback queued as microtasks (Yew handles its messages so) runs before this.
        queueMicrotask(() => {
          frame.settled = performance.now();
        });
        bench.frames.push(frame);
        if (bench.frames.length > 10000) bench.frames.splice(0, 5000);
        // A message task runs after this frame's rendering (style, layout, paint, canvas flush).
        waiting.push(frame);
        channel.port2.postMessage(0);
      }
    });
  const watch = () => {
    const bar = document.getElementById('progress');
    if (bar && bar.hasAttribute('value')) {
      const value = Number(bar.getAttribute('value')) || 0;
      if (value !== bench.progress.value) bench.progress.updates++;
      bench.progress.value = Math.max(bench.progress.value, value);
      bench.progress.max = Math.max(bench.progress.max, Number(bar.getAttribute('max')) || 0);
    }
    if (document.getElementById('cancel')) bench.cancel = true;
  };
  document.addEventListener('DOMContentLoaded', () => {
    new MutationObserver(watch).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
}

module.exports = { probe };
