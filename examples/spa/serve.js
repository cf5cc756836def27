#!/usr/bin/env node
// Serves examples/spa (every path falls back to index.html, as a client-routed app needs) next to a
// local collector, and prints what arrives. From the repo root after `npm run build`:
//   node examples/spa/serve.js
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createCollector } from '../../dist/devserver/index.js';

const here = new URL('./', import.meta.url);
const root = new URL('../../', import.meta.url);
const collector = await createCollector({
  port: Number(process.env.COLLECTOR_PORT ?? 8020),
  onEvents: (events) => {
    for (const event of events) console.log(`collector: ${event.event} ${event.properties.$pathname ?? ''} from ${event.distinct_id}`);
  },
});

const server = createServer((req, res) => {
  const path = (req.url ?? '/').split('?')[0];
  if (path === '/app.js') return res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(readFileSync(new URL('app.js', here)));
  if (path.startsWith('/hogtail/')) {
    // The package's dist/, as node_modules/hogtail/dist would be.
    const file = new URL('dist/' + path.slice('/hogtail/'.length), root);
    try {
      return res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(readFileSync(file));
    } catch {
      return res.writeHead(404).end();
    }
  }
  const html = readFileSync(new URL('index.html', here), 'utf8').replace(
    '<script type="module"',
    `<script>window.COLLECTOR_URL = ${JSON.stringify(collector.url)};</script><script type="module"`,
  );
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html);
});
server.listen(Number(process.env.PORT ?? 8021), '127.0.0.1', () => {
  console.log(`spa example: http://127.0.0.1:${server.address().port}/  (collector ${collector.url})`);
});
