#!/usr/bin/env node
// Summarises a .cpuprofile (from `bench/browser.js --profile`): the functions with the most self
// time and the most total time (self + callees, each function counted once per sample).
//
//   node bench/lib/cpuprofile.js FILE.cpuprofile [--top 30]
'use strict';
const fs = require('node:fs');

function summarise(profile, top) {
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
    if (!n || n.callFrame.functionName === '(idle)' || n.callFrame.functionName === '(program)') return;
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
  console.error('usage: node bench/lib/cpuprofile.js FILE.cpuprofile [--top 30]');
  process.exit(2);
}
console.log(summarise(JSON.parse(fs.readFileSync(file, 'utf8')), topAt >= 0 ? Number(args[topAt + 1]) : 30));
