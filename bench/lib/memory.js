// Memory of a Chromium instance's renderer processes (the page and its workers live there), read
// from /proc: the sum of their PSS (proportional set size, shared pages split between users).
'use strict';
const fs = require('node:fs');

function read(file) {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** pid → parent pid for every process. */
function parents() {
  const map = new Map();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = read(`/proc/${name}/stat`);
    const close = stat.lastIndexOf(')');
    if (close < 0) continue;
    const fields = stat.slice(close + 2).split(' ');
    map.set(Number(name), Number(fields[1]));
  }
  return map;
}

/** The browser process started with this profile directory. */
function browserPid(profile) {
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const cmd = read(`/proc/${name}/cmdline`);
    if (cmd.includes(`--user-data-dir=${profile}`) && !cmd.includes('--type=')) return Number(name);
  }
  return null;
}

/** Renderer processes below `root`. */
function renderers(root) {
  const tree = parents();
  const below = (pid) => {
    for (let p = pid, n = 0; p > 1 && n < 64; p = tree.get(p), n++) if (p === root) return true;
    return false;
  };
  return [...tree.keys()].filter((pid) => below(pid) && read(`/proc/${pid}/cmdline`).includes('--type=renderer'));
}

function pssBytes(pid) {
  return pssParts(pid).pss;
}

/** A process's PSS and its anonymous and shared-memory (shmem: pixels shared with the compositor,
 * shared wasm memory) parts, in bytes. */
function pssParts(pid) {
  const rollup = read(`/proc/${pid}/smaps_rollup`);
  const field = (name) => {
    const m = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(rollup);
    return m ? Number(m[1]) * 1024 : 0;
  };
  return { pss: field('Pss'), anon: field('Pss_Anon'), shmem: field('Pss_Shmem') };
}

/** Samples the renderers' total PSS every `ms` until stopped; keeps the peak. */
class Sampler {
  constructor(root, ms = 100) {
    this.root = root;
    this.peak = 0;
    this.last = 0;
    this.started = Date.now();
    /** [ms since start, bytes, anonymous bytes, shmem bytes] per sample, for finding which phase
     * peaks and what it is made of. */
    this.timeline = [];
    this.pids = renderers(root);
    this.timer = setInterval(() => this.sample(), ms);
    this.sample();
  }

  sample() {
    const now = renderers(this.root);
    if (now.length) this.pids = now;
    const parts = this.pids.map(pssParts);
    const sum = (key) => parts.reduce((total, p) => total + p[key], 0);
    this.last = sum('pss');
    this.peak = Math.max(this.peak, this.last);
    this.timeline.push([Date.now() - this.started, this.last, sum('anon'), sum('shmem')]);
    return this.last;
  }

  stop() {
    clearInterval(this.timer);
    this.sample();
    return this.peak;
  }
}

/** The renderers' total PSS now. */
function rendererPss(root) {
  return renderers(root).reduce((sum, pid) => sum + pssBytes(pid), 0);
}

module.exports = { Sampler, browserPid, rendererPss };
