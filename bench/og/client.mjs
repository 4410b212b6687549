// The client of bench/og/compare.sh: COUNT sequential GETs of URL + seed, one
// keep-alive connection (Node's fetch), a new seed each time (PREFIX-0,
// PREFIX-1, …), each request timed from sending to the last byte of the
// body. A process per run, rather than curl per request, keeps process
// start-up out of the times.
//
// Every answer must be 200 with a 1200×630 PNG; anything else ends the run
// (exit 1). Prints: median ms, p90 ms (nearest rank), mean PNG KiB.
//
// Usage: node client.mjs URL COUNT PREFIX   (URL ends in "seed=")
const [base, countArg, prefix] = process.argv.slice(2);
const count = Number(countArg);
if (!base || !(count > 0) || !prefix) {
  console.error('usage: node client.mjs URL COUNT PREFIX');
  process.exit(2);
}
const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const ms = [];
let bytes = 0;
for (let i = 0; i < count; i++) {
  const url = base + encodeURIComponent(`${prefix}-${i}`);
  const start = performance.now();
  const res = await fetch(url);
  const body = Buffer.from(await res.arrayBuffer());
  ms.push(performance.now() - start);
  // IHDR follows the signature: width at byte 16, height at 20.
  const png = body.length > 24 && body.subarray(0, 8).equals(signature);
  if (res.status !== 200 || !png || body.readUInt32BE(16) !== 1200 || body.readUInt32BE(20) !== 630) {
    console.error(`client.mjs: ${url}: status ${res.status}, ${res.headers.get('content-type')}, ${body.length} bytes: not a 1200×630 PNG`);
    process.exit(1);
  }
  bytes += body.length;
}
ms.sort((a, b) => a - b);
const mid = count >> 1;
const median = count % 2 ? ms[mid] : (ms[mid - 1] + ms[mid]) / 2;
const p90 = ms[Math.ceil(0.9 * count) - 1];
console.log(median.toFixed(1), p90.toFixed(1), (bytes / count / 1024).toFixed(0));
