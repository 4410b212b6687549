// The client of bench/og/compare.sh: COUNT sequential GETs of URL + seed, one
// keep-alive connection (node:http), a new seed each time (PREFIX-0,
// PREFIX-1, …), each request timed from sending to the last byte of the
// body. A process per run, rather than curl per request, keeps process
// start-up out of the times.
//
// The body is counted as it streams in, and only its first bytes kept,
// rather than gathered by fetch's arrayBuffer(): on a 2-core machine that
// alone added about 4 ms to every answer of this size (a fixed 276 KB PNG
// served by a bare Go handler: 6.9–7.2 ms a request with fetch, 3.0–3.2 ms
// streamed), the same for both servers, and so hid part of the gap between
// them
// (docs/performance.md, "The og-image client's own cost").
//
// Every answer must be 200 with a 1200×630 PNG; anything else ends the run
// (exit 1). Prints: median ms, p90 ms (nearest rank), mean PNG KiB.
//
// Usage: node client.mjs URL COUNT PREFIX   (URL ends in "seed=")
import http from 'node:http';

const [base, countArg, prefix] = process.argv.slice(2);
const count = Number(countArg);
if (!base || !(count > 0) || !prefix) {
  console.error('usage: node client.mjs URL COUNT PREFIX');
  process.exit(2);
}
const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

// get resolves to the answer's status, content type, length and first
// bytes (all the checks below read).
function get(url) {
  return new Promise((resolve, reject) => {
    http.get(url, { agent }, (res) => {
      let head = Buffer.alloc(0);
      let length = 0;
      res.on('data', (c) => {
        if (head.length < 24) head = Buffer.concat([head, c]);
        length += c.length;
      });
      res.on('end', () => resolve({ status: res.statusCode, type: res.headers['content-type'], head, length }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

const ms = [];
let bytes = 0;
for (let i = 0; i < count; i++) {
  const url = base + encodeURIComponent(`${prefix}-${i}`);
  const start = performance.now();
  let res;
  try {
    res = await get(url);
  } catch (err) {
    console.error(`client.mjs: ${url}: ${err.message}`);
    process.exit(1);
  }
  ms.push(performance.now() - start);
  const { status, type, head, length } = res;
  // IHDR follows the signature: width at byte 16, height at 20.
  const png = head.length > 24 && head.subarray(0, 8).equals(signature);
  if (status !== 200 || !png || head.readUInt32BE(16) !== 1200 || head.readUInt32BE(20) !== 630) {
    console.error(`client.mjs: ${url}: status ${status}, ${type}, ${length} bytes: not a 1200×630 PNG`);
    process.exit(1);
  }
  bytes += length;
}
agent.destroy();
ms.sort((a, b) => a - b);
const mid = count >> 1;
const median = count % 2 ? ms[mid] : (ms[mid - 1] + ms[mid]) / 2;
const p90 = ms[Math.ceil(0.9 * count) - 1];
console.log(median.toFixed(1), p90.toFixed(1), (bytes / count / 1024).toFixed(0));
