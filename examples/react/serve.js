#!/usr/bin/env node
// Builds the React example with esbuild (from the package's dist/, as an app's bundler would use
// node_modules/hogtail) and serves it. It sends to the collector you started, `hogtail dev` by
// default, so what you click shows on its live page. From the repo root after `npm run build`:
//   npx hogtail dev --flags examples/flags.json     (in one terminal)
//   node examples/react/serve.js [--collector http://127.0.0.1:8010] [--port 8031]
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const { values } = parseArgs({
  options: { collector: { type: 'string', default: 'http://127.0.0.1:8010' }, port: { type: 'string', default: '8031' } },
});
const dist = (file) => new URL(`../../dist/${file}`, import.meta.url).pathname;

const bundle = await build({
  entryPoints: [new URL('app.jsx', import.meta.url).pathname],
  bundle: true,
  minify: true,
  format: 'esm',
  jsx: 'automatic',
  write: false,
  define: { 'process.env.NODE_ENV': '"production"' },
  alias: { 'hogtail/react': dist('react/index.js'), hogtail: dist('browser/index.js') },
  logLevel: 'warning',
});
const script = bundle.outputFiles[0].contents;
const page = `<!doctype html><html><head><meta charset="utf-8"><title>hogtail/react example</title>
<script>window.COLLECTOR_URL = ${JSON.stringify(values.collector)};</script>
<script type="module" src="/app.js"></script></head><body><div id="root"></div></body></html>`;

const server = createServer((req, res) => {
  if ((req.url ?? '/').startsWith('/app.js')) return res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(script);
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(page);
});
server.listen(Number(values.port), '127.0.0.1', () => {
  console.log(`react example: http://127.0.0.1:${server.address().port}/  (sending to ${values.collector})`);
});
