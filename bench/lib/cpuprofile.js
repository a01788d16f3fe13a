#!/usr/bin/env node
// Summarises a .cpuprofile (from `bench/browser.js --profile`): the functions with the most self
// time and the most total time (self + callees, each function counted once per sample).
//
//   node bench/lib/cpuprofile.js FILE.cpuprofile [--top 30] [--tasks]
//
// --tasks (for a profile from `--profile-load`, with its FILE.tasks.json beside it): the same two
// lists for each main-thread task over 50 ms, from the samples taken during that task.
'use strict';
const fs = require('node:fs');

/** Each sample's node id and time in ms on the profile's clock. */
function samplesOf(profile) {
  let t = profile.startTime;
  return profile.samples.map((id, i) => {
    t += profile.timeDeltas[i] ?? 0;
    return { id, ms: t / 1000 };
  });
}

/**
 * One summary per long task in `tasks` ({mark, longtasks} from bench/browser.js): the profile's
 * clock is tied to the page's by the first sample inside `__benchProfileMark`.
 */
function summariseTasks(profile, tasks, top) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children || []) parent.set(c, n.id);
  const inMark = (id) => {
    for (let k = id; k != null; k = parent.get(k)) if (nodes.get(k).callFrame.functionName === '__benchProfileMark') return true;
    return false;
  };
  const samples = samplesOf(profile);
  const first = samples.find((s) => inMark(s.id));
  if (!first) throw new Error('no sample in __benchProfileMark: was this profile made with --profile-load?');
  const offset = first.ms - tasks.mark;
  return tasks.longtasks
    .map((task) => {
      const from = task.start + offset;
      const to = from + task.duration;
      const inside = { ...profile, samples: [], timeDeltas: [] };
      let last = null;
      for (const s of samples) {
        if (s.ms < from || s.ms > to) continue;
        inside.samples.push(s.id);
        inside.timeDeltas.push(last == null ? 0 : (s.ms - last) * 1000);
        last = s.ms;
      }
      inside.timeDeltas.push(0);
      return `=== task at ${task.start.toFixed(0)} ms, ${task.duration.toFixed(0)} ms long ===\n${summarise(inside, top, true)}`;
    })
    .join('\n\n');
}

/** With `program`, native work outside JavaScript and wasm ("(program)") counts as busy. */
function summarise(profile, top, program = false) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children || []) parent.set(c, n.id);
  const label = (n) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url ? n.callFrame.url.split('/').pop() : ''}`.trim();
  const self = new Map();
  const total = new Map();
  let all = 0;
  const deltas = profile.timeDeltas;
  profile.samples.forEach((id, i) => {
    const dt = (deltas[i + 1] ?? 0) / 1000; // ms until the next sample
    const n = nodes.get(id);
    if (!n || n.callFrame.functionName === '(idle)' || (!program && n.callFrame.functionName === '(program)')) return;
    all += dt;
    self.set(label(n), (self.get(label(n)) || 0) + dt);
    const seen = new Set();
    for (let k = id; k != null; k = parent.get(k)) {
      const l = label(nodes.get(k));
      if (seen.has(l)) continue;
      seen.add(l);
      total.set(l, (total.get(l) || 0) + dt);
    }
  });
  const rows = (m) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, v]) => `${v.toFixed(1).padStart(9)} ms ${((100 * v) / all).toFixed(1).padStart(5)} %  ${k}`)
      .join('\n');
  return `busy ${all.toFixed(1)} ms\n\nself time\n${rows(self)}\n\ntotal time\n${rows(total)}`;
}

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--'));
const topAt = args.indexOf('--top');
if (!file) {
  console.error('usage: node bench/lib/cpuprofile.js FILE.cpuprofile [--top 30] [--tasks]');
  process.exit(2);
}
const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
const top = topAt >= 0 ? Number(args[topAt + 1]) : 30;
if (args.includes('--tasks')) console.log(summariseTasks(profile, JSON.parse(fs.readFileSync(`${file}.tasks.json`, 'utf8')), top));
else console.log(summarise(profile, top));
