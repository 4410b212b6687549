// The DiceBear baseline of bench/avatar/compare.sh: DiceBear's "adventurer"
// avatars (@dicebear/core + @dicebear/collection, pinned in package.json and
// package-lock.json) served by Node's plain http server, answering
// GET /api/avatar-image?seed=..&size=.. as Plaza does: image/svg+xml, the
// same Cache-Control, 400 for a missing seed or a size outside 50..1000.
//
// Usage: node server.mjs [PORT]   (listens on 127.0.0.1 only; default 18102)
import http from 'node:http';
import { createAvatar } from '@dicebear/core';
import { adventurer } from '@dicebear/collection';

const port = Number(process.argv[2] || process.env.PORT || 18102);

function badRequest(res, message) {
  const body = JSON.stringify({ error: message, status: 400 });
  res.writeHead(400, { 'Content-Type': 'application/json' });
  res.end(body);
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://127.0.0.1');
  if (req.method !== 'GET' || url.pathname !== '/api/avatar-image') {
    res.writeHead(404, { 'Content-Type': 'text/plain' });
    res.end('not found\n');
    return;
  }
  const seed = url.searchParams.get('seed');
  if (!seed) {
    badRequest(res, 'seed is required');
    return;
  }
  const sizeParam = url.searchParams.get('size') ?? '';
  let size = 200;
  if (sizeParam !== '') {
    size = /^[0-9]{1,4}$/.test(sizeParam) ? Number(sizeParam) : 0;
    if (size < 50 || size > 1000) {
      badRequest(res, 'size must be an integer from 50 to 1000');
      return;
    }
  }
  const svg = createAvatar(adventurer, { seed, size }).toString();
  res.writeHead(200, {
    'Content-Type': 'image/svg+xml',
    'Cache-Control': 'no-cache, no-store, must-revalidate',
  });
  res.end(svg);
});

server.keepAliveTimeout = 65_000; // wrk's connections stay open for the whole run
server.listen(port, '127.0.0.1');
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    server.close();
    server.closeAllConnections();
  });
}
