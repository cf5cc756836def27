// The loopback collector for benchmarks, in its own process so that its CPU and memory never count
// against the SDK being measured. Speaks to the parent over IPC.
//
// It is deliberately lean: gunzip, JSON.parse, count uuids, answer 200. The full rules collector
// (src/devserver) validates every field and keeps every event, which costs about 20 µs per event and
// would cap what any SDK can show at about 50k events/s; `--rules` uses it anyway.
import http from 'node:http';
import { gunzipSync } from 'node:zlib';

const useRules = process.argv.includes('--rules');
let wireBytes = 0;
let requests = 0;
let duplicates = 0;
const seen = new Set();

function count(events) {
  for (const event of events) {
    if (seen.has(event.uuid)) duplicates++;
    else seen.add(event.uuid);
  }
}

let url;
let close;
if (useRules) {
  const { createCollector } = await import('../dist/devserver/index.js');
  const collector = await createCollector({
    onRequest: (info) => {
      requests++;
      wireBytes += Number(info.headers['content-length'] ?? 0);
    },
    onEvents: (events) => {
      count(events);
      collector.events.length = 0;
    },
  });
  url = collector.url;
  close = () => collector.close();
} else {
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      requests++;
      let body = Buffer.concat(chunks);
      wireBytes += body.length;
      if (body[0] === 0x1f && body[1] === 0x8b) body = gunzipSync(body);
      const parsed = JSON.parse(body.toString('utf8'));
      count(Array.isArray(parsed) ? parsed : (parsed.batch ?? [parsed]));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"status":"Ok"}');
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${server.address().port}`;
  close = () => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  };
}

process.on('message', (message) => {
  if (message === 'stats') {
    process.send({ received: seen.size, duplicates, wireBytes, requests });
  } else if (message === 'reset') {
    seen.clear();
    duplicates = wireBytes = requests = 0;
    process.send({ reset: true });
  } else if (message === 'close') {
    close().then(() => process.exit(0));
  }
});
process.send({ url });
