#!/usr/bin/env node
// Lists the page's main-thread tasks over 50 ms in a DevTools timeline trace (from
// `bench/browser.js --trace-load FILE`), each as a tree of the trace events inside it (script,
// style, layout, paint, garbage collection, …; same-named siblings merged, down to 1 ms), in ms.
//
//   node bench/lib/tasks.js FILE [--min 50] [--total]
//
// --total prints one tree: every task over --min merged (for a frame sequence: `--min 0 --total`).
'use strict';
const fs = require('node:fs');

/** Complete events (`X`, or `B`/`E` pairs) of one thread, sorted by start, in µs. */
function spans(events, pid, tid) {
  const out = [];
  const open = [];
  for (const e of events) {
    if (e.pid !== pid || e.tid !== tid) continue;
    if (e.ph === 'X') out.push({ name: e.name, ts: e.ts, end: e.ts + (e.dur || 0) });
    else if (e.ph === 'B') open.push(e);
    else if (e.ph === 'E') {
      const b = open.pop();
      if (b) out.push({ name: b.name, ts: b.ts, end: e.ts });
    }
  }
  return out.sort((a, b) => a.ts - b.ts || b.end - a.end);
}

/** Nests sorted spans into trees (a span inside another becomes its child). */
function nest(list) {
  const roots = [];
  const stack = [];
  for (const s of list) {
    s.children = [];
    while (stack.length && stack[stack.length - 1].end <= s.ts) stack.pop();
    if (stack.length) stack[stack.length - 1].children.push(s);
    else roots.push(s);
    stack.push(s);
  }
  return roots;
}

function byName(list) {
  const m = new Map();
  for (const s of list) m.set(s.name, (m.get(s.name) || 0) + (s.end - s.ts) / 1000);
  return [...m.entries()].sort((a, b) => b[1] - a[1]);
}

/** Prints `list` merged by name, biggest first, and what is inside each, down to 1 ms. */
function print(list, depth) {
  for (const [name, ms] of byName(list)) {
    if (ms < 1 || depth > 8) continue;
    const self = ms - list.filter((c) => c.name === name).flatMap((c) => c.children).reduce((t, c) => t + (c.end - c.ts) / 1000, 0);
    console.log(`${'  '.repeat(depth)}${ms.toFixed(1)} ms  ${name}${self >= 1 ? ` (self ${self.toFixed(1)})` : ''}`);
    print(list.filter((c) => c.name === name).flatMap((c) => c.children), depth + 1);
  }
}

function main() {
  const args = process.argv.slice(2);
  const file = args.find((a) => !a.startsWith('--'));
  const minAt = args.indexOf('--min');
  const min = minAt >= 0 ? Number(args[minAt + 1]) : 50;
  if (!file) {
    console.error('usage: node bench/lib/tasks.js TRACE.json [--min 50]');
    process.exit(2);
  }
  const raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  const events = Array.isArray(raw) ? raw : raw.traceEvents;
  // The page's main thread: the renderer main thread with the most events.
  const mains = events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const count = (m) => events.reduce((n, e) => n + (e.pid === m.pid && e.tid === m.tid ? 1 : 0), 0);
  const main = mains.map((m) => ({ m, n: count(m) })).sort((a, b) => b.n - a.n)[0]?.m;
  if (!main) throw new Error('no CrRendererMain thread in the trace');
  const roots = nest(spans(events, main.pid, main.tid));
  const tasks = roots.filter((s) => (s.end - s.ts) / 1000 > min);
  const t0 = roots[0]?.ts ?? 0;
  if (args.includes('--total')) {
    console.log(`=== ${tasks.length} tasks over ${min} ms, merged ===`);
    print(tasks, 1);
    return;
  }
  for (const task of tasks) {
    console.log(`=== ${task.name} at ${((task.ts - t0) / 1000).toFixed(0)} ms, ${((task.end - task.ts) / 1000).toFixed(1)} ms long ===`);
    print(task.children, 1);
  }
  if (!tasks.length) console.log(`no main-thread task over ${min} ms`);
}

main();
