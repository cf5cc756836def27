#!/usr/bin/env node
// Serves examples/script-tag on 127.0.0.1 next to a local collector, and prints every event that
// arrives. Run from the repo root after `npm run build`:  node examples/script-tag/serve.js
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createCollector } from '../../dist/devserver/index.js';

const here = new URL('./', import.meta.url);
const root = new URL('../../', import.meta.url);
const collector = await createCollector({
  port: Number(process.env.COLLECTOR_PORT ?? 8010),
  onEvents: (events) => {
    for (const event of events) console.log(`collector: ${event.event} from ${event.distinct_id}`, JSON.stringify(event.properties).slice(0, 120));
  },
});

const files = {
  '/': [new URL('index.html', here), 'text/html; charset=utf-8'],
  '/hogtail.iife.js': [new URL('dist/hogtail.iife.js', root), 'text/javascript'],
};
const server = createServer((req, res) => {
  const path = (req.url ?? '/').split('?')[0];
  const file = files[path];
  if (!file) return res.writeHead(404).end();
  let body = readFileSync(file[0], 'utf8');
  if (path === '/') body = body.replaceAll('http://127.0.0.1:8010', collector.url);
  res.writeHead(200, { 'Content-Type': file[1] }).end(body);
});
server.listen(Number(process.env.PORT ?? 8011), '127.0.0.1', () => {
  console.log(`script-tag example: http://127.0.0.1:${server.address().port}/  (collector ${collector.url})`);
});
