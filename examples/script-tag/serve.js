#!/usr/bin/env node
// Serves examples/script-tag on 127.0.0.1, sending to the `hogtail dev` you already run (HOGTAIL_HOST,
// default http://127.0.0.1:8010): open the example, click around, and watch the events arrive on that
// server's live page. From the repo root after `npm run build`:
//   npx hogtail dev &   node examples/script-tag/serve.js
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { collectorAddress } from '../collector-address.js';

const here = new URL('./', import.meta.url);
const root = new URL('../../', import.meta.url);

/** Starts the example server with the snippet pointed at `collectorUrl`; resolves once it listens. */
export function serveScriptTag(collectorUrl, port = 0) {
  const files = {
    '/': [new URL('index.html', here), 'text/html; charset=utf-8'],
    '/hogtail.iife.js': [new URL('dist/hogtail.iife.js', root), 'text/javascript'],
    // Loaded by the script tag from next to it when the remote config says the project has surveys.
    '/hogtail.surveys.js': [new URL('dist/hogtail.surveys.js', root), 'text/javascript'],
    // Session replay's file, next to the script tag: loaded when the remote config turns recording on.
    '/hogtail.recorder.js': [new URL('dist/hogtail.recorder.js', root), 'text/javascript'],
  };
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const file = files[path];
    if (!file) return res.writeHead(404).end();
    let body = readFileSync(file[0], 'utf8');
    if (path === '/') body = body.replaceAll('http://127.0.0.1:8010', collectorUrl);
    res.writeHead(200, { 'Content-Type': file[1] }).end(body);
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const collector = await collectorAddress();
  const server = await serveScriptTag(collector, Number(process.env.PORT ?? 8011));
  console.log(`script-tag example: http://127.0.0.1:${server.address().port}/`);
  console.log(`its events go to hogtail dev at ${collector}; watch them at ${collector}/`);
}
