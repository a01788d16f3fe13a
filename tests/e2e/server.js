// Tiny static file server for the built viewer (dist/), used by the e2e tests, scripts/check.sh
// and scripts/serve.sh. It serves the same folder at `/` and at `/flamedrop/`, so the tests can
// check that the page also works from a sub-path (as on GitHub Pages: /<repo>/).
//
//   node server.js <dir> [--port N] [--host 127.0.0.1]     (port 0 = a random free port)
//
// Prints one line `listening http://HOST:PORT/` once it accepts connections.
'use strict';
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');

const SUBPATH = '/flamedrop/';

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

function send(res, status, body, headers = {}) {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers });
  res.end(body);
}

function handler(root) {
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'method not allowed\n');
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    } catch {
      return send(res, 400, 'bad url\n');
    }
    if (pathname === SUBPATH.slice(0, -1)) return send(res, 301, '', { Location: SUBPATH });
    const rel = pathname.startsWith(SUBPATH) ? pathname.slice(SUBPATH.length) : pathname.slice(1);
    let file = path.resolve(root, rel);
    if (file !== root && !file.startsWith(root + path.sep)) return send(res, 403, 'forbidden\n');
    let stat = fs.statSync(file, { throwIfNoEntry: false });
    if (stat && stat.isDirectory()) {
      if (!pathname.endsWith('/')) return send(res, 301, '', { Location: pathname + '/' });
      file = path.join(file, 'index.html');
      stat = fs.statSync(file, { throwIfNoEntry: false });
    }
    if (!stat || !stat.isFile()) return send(res, 404, 'not found\n');
    res.writeHead(200, {
      'Content-Type': MIME[path.extname(file).toLowerCase()] || 'application/octet-stream',
      'Content-Length': stat.size,
      'Cache-Control': 'no-store',
    });
    if (req.method === 'HEAD') return res.end();
    fs.createReadStream(file).pipe(res);
  };
}

/** Starts the server; resolves to { server, base } with base like `http://127.0.0.1:PORT/`. */
function startServer(dir, { port = 0, host = '127.0.0.1' } = {}) {
  const root = path.resolve(dir);
  const server = http.createServer(handler(root));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      resolve({ server, base: `http://${host}:${server.address().port}/` });
    });
  });
}

module.exports = { startServer, SUBPATH };

if (require.main === module) {
  const args = process.argv.slice(2);
  const opt = (name, dflt) => {
    const i = args.indexOf(name);
    return i >= 0 ? args.splice(i, 2)[1] : dflt;
  };
  const port = Number(opt('--port', 0));
  const host = opt('--host', '127.0.0.1');
  const dir = args[0];
  if (!dir || !fs.existsSync(path.join(dir, 'index.html'))) {
    console.error(`server.js: no index.html in '${dir || ''}' (build the viewer first: trunk build --release)`);
    process.exit(2);
  }
  startServer(dir, { port, host }).then(
    ({ base }) => console.log(`listening ${base}`),
    (err) => {
      console.error(`server.js: cannot listen on ${host}:${port}: ${err.message}`);
      process.exit(1);
    },
  );
}
