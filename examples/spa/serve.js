#!/usr/bin/env node
// Serves examples/spa (every path falls back to index.html, as a client-routed app needs), sending to
// the `hogtail dev` you already run (HOGTAIL_HOST, default http://127.0.0.1:8010); watch its live
// page. From the repo root after `npm run build`:
//   npx hogtail dev &   node examples/spa/serve.js
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { collectorAddress } from '../collector-address.js';

const here = new URL('./', import.meta.url);
const root = new URL('../../', import.meta.url);

/** Starts the example server with the app pointed at `collectorUrl`; resolves once it listens. */
export function serveSpa(collectorUrl, port = 0) {
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
      `<script>window.COLLECTOR_URL = ${JSON.stringify(collectorUrl)};</script><script type="module"`,
    );
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html);
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const collector = await collectorAddress();
  const server = await serveSpa(collector, Number(process.env.PORT ?? 8021));
  console.log(`spa example: http://127.0.0.1:${server.address().port}/`);
  console.log(`its events go to hogtail dev at ${collector}; watch them at ${collector}/`);
}
