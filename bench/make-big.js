#!/usr/bin/env node
// Makes big benchmark inputs out of small real recordings, for formats whose tools cannot be run
// here to record big ones (uftrace has /work/shared/tools/make-big-uftrace.sh instead).
//
//   node bench/make-big.js selogger SRC_DIR OUT_DIR MB
//       SRC_DIR is a SELogger binary omniscient recording (log-NNNNN.slg + classes/methods/dataids).
//       Copies every other file, then writes the 16-byte event records of the log-*.slg files (in
//       numeric order, a cut-off last record dropped) over and over until MB megabytes, rotating
//       files every 10,000,000 records as SELogger does (log-00001.slg, log-00002.slg, ...).
//   node bench/make-big.js rtrace SRC_FILE OUT_FILE MB
//       SRC_FILE is a binary sp-rtrace recording (*.rtrace). Keeps the handshake and every packet
//       before the first CALL, then repeats the run of CALL and BTRC packets (and whatever lies
//       between them) until MB megabytes, then the packets after the last CALL/BTRC (HINF, ...).
//
// SWAP has no real recordings anywhere public (see /work/shared/fixtures/swap/README.md): big SWAP
// inputs come from the SWAP decoder's own synthetic encoder (see bench/README.md).
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const MB = 1e6;

function selogger(src, out, mb) {
  fs.mkdirSync(out, { recursive: true });
  const names = fs.readdirSync(src).sort();
  const logs = names
    .filter((n) => /^log-\d+\.slg$/.test(n))
    .sort((a, b) => Number(a.match(/\d+/)[0]) - Number(b.match(/\d+/)[0]));
  if (!logs.length) throw new Error(`${src}: no log-NNNNN.slg files`);
  for (const n of names) {
    if (!logs.includes(n) && fs.statSync(path.join(src, n)).isFile()) fs.copyFileSync(path.join(src, n), path.join(out, n));
  }
  let records = Buffer.concat(logs.map((n) => fs.readFileSync(path.join(src, n))));
  records = records.subarray(0, records.length - (records.length % 16));
  if (!records.length) throw new Error(`${src}: the .slg files hold no whole record`);
  const perFile = 10_000_000 * 16;
  const target = Math.ceil((mb * MB) / 16) * 16;
  let written = 0;
  let file = 1;
  while (written < target) {
    const size = Math.min(perFile, target - written);
    const fd = fs.openSync(path.join(out, `log-${String(file).padStart(5, '0')}.slg`), 'w');
    for (let done = 0; done < size; ) {
      const offset = (written + done) % records.length;
      const part = records.subarray(offset, Math.min(records.length, offset + (size - done)));
      fs.writeSync(fd, part);
      done += part.length;
    }
    fs.closeSync(fd);
    written += size;
    file++;
  }
  console.log(`${out}: ${file - 1} .slg files, ${written / 16} records (${(written / MB).toFixed(0)} MB), from ${records.length / 16} real records`);
}

function rtrace(src, out, mb) {
  const bytes = fs.readFileSync(src);
  if (bytes[0] !== 0xf0) throw new Error(`${src}: not a binary sp-rtrace file (no 0xF0 handshake)`);
  const handshake = bytes[1] + 2;
  const major = bytes[2];
  const archLen = bytes[4];
  const big = bytes[5 + archLen] === 1;
  const u32 = (at) => (big ? bytes.readUInt32BE(at) : bytes.readUInt32LE(at));
  const tag = (at) => {
    const t = bytes.subarray(at, at + 4).toString('latin1');
    return big ? [...t].reverse().join('') : t;
  };
  // Packets: 2.0 = [type][len][payload len]; 1.x = [size][type][payload size-4].
  const packets = [];
  let at = handshake; // L counts the handshake's padding too
  while (at + 8 <= bytes.length) {
    const [type, total] = major >= 2 ? [tag(at), 8 + u32(at + 4)] : [tag(at + 4), 4 + u32(at)];
    if (total < 8 || at + total > bytes.length) break;
    packets.push({ type, start: at, end: at + total });
    at += total;
  }
  const isCall = (p) => p.type === 'CALL' || p.type === 'BTRC';
  const first = packets.findIndex(isCall);
  const last = packets.length - 1 - [...packets].reverse().findIndex(isCall);
  if (first < 0) throw new Error(`${src}: no CALL or BTRC packets`);
  const head = bytes.subarray(0, packets[first].start);
  const body = bytes.subarray(packets[first].start, packets[last].end);
  const tail = bytes.subarray(packets[last].end, at);
  const fd = fs.openSync(out, 'w');
  fs.writeSync(fd, head);
  let written = head.length;
  let copies = 0;
  while (written + tail.length < mb * MB) {
    fs.writeSync(fd, body);
    written += body.length;
    copies++;
  }
  fs.writeSync(fd, tail);
  fs.closeSync(fd);
  console.log(`${out}: ${((written + tail.length) / MB).toFixed(0)} MB, ${copies} copies of ${last - first + 1} packets (protocol ${major}.x, ${big ? 'big' : 'little'}-endian)`);
}

function main() {
  const [kind, src, out, mb] = process.argv.slice(2);
  if (!kind || !src || !out || !(Number(mb) > 0)) {
    console.error(fs.readFileSync(__filename, 'utf8').split('\n').slice(1, 16).map((l) => l.replace(/^\/\/ ?/, '')).join('\n'));
    process.exit(2);
  }
  if (kind === 'selogger') selogger(path.resolve(src), path.resolve(out), Number(mb));
  else if (kind === 'rtrace') rtrace(path.resolve(src), path.resolve(out), Number(mb));
  else throw new Error(`unknown kind ${kind} (selogger or rtrace)`);
}

main();
