/**
 * posthog-js's session replay on the same pages as hogtail's, for the scenarios both SDKs run:
 * posthog-js (array.full.js, its recorder bundled) points at a small proxy in front of a real
 * `hogtail dev`, which stores and unpacks its recordings; the proxy answers posthog-js's remote
 * config (`/array/<key>/config` and `config.js`) with the dev server's plus the `sessionRecording`
 * settings a test sets (`site.recording`), which the dev server's own config does not vary.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest, createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startDevServer, type DevServer } from '../../../src/devserver';
import { repoRoot } from '../../support/built';
import { replayPage } from '../replay-page';
import { launchChromium } from './chromium';
import { startStaticServer, type StaticServer } from './static-server';

export const POSTHOG_KEY = 'phc_posthogReplay';

export interface PosthogReplaySite {
  readonly browser: Browser;
  readonly app: StaticServer;
  readonly dev: DevServer;
  /** Where posthog-js sends (the proxy). */
  readonly host: string;
  /** `sessionRecording` fields added to the remote config (set per test). */
  recording: Record<string, unknown>;
  /** Adds a page with posthog-js initialised (its options over the tests' defaults) at `path`. */
  page(path: string, options?: Record<string, unknown>): void;
  /** The recording of `sessionId` as the dev server unpacked it, as text ('' when none). */
  recorded(sessionId: string): Promise<string>;
}

/** Forwards a request to the dev server as it came. */
function forward(dev: DevServer, req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse): void {
  const upstream = httpRequest(dev.url + (req.url ?? '/'), { method: req.method, headers: req.headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  upstream.on('error', () => res.writeHead(502).end('dev server unreachable'));
  req.pipe(upstream);
}

async function startProxy(dev: DevServer, site: { recording: Record<string, unknown> }): Promise<Server> {
  const server = createServer((req, res) => {
    const match = /^\/array\/([^/?]+)\/config(\.js)?/.exec(req.url ?? '');
    if (!match) return forward(dev, req, res);
    void fetch(`${dev.url}/array/${match[1]}/config`)
      .then((answer) => answer.json())
      .then((config: Record<string, unknown>) => {
        const patched = { ...config, sessionRecording: { ...(config.sessionRecording as object), ...site.recording } };
        const headers = { 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'no-store' };
        if (!match[2]) return void res.writeHead(200, { ...headers, 'Content-Type': 'application/json' }).end(JSON.stringify(patched));
        const script = `(window._POSTHOG_REMOTE_CONFIG=window._POSTHOG_REMOTE_CONFIG||{})[${JSON.stringify(match[1])}]=${JSON.stringify({ config: patched, siteApps: [] })};`;
        res.writeHead(200, { ...headers, 'Content-Type': 'text/javascript' }).end(script);
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

export function usePosthogReplaySite(): PosthogReplaySite {
  let dataDir = '';
  let proxy: Server | undefined;
  const site = { recording: {} } as PosthogReplaySite & { browser: Browser; app: StaticServer; dev: DevServer; host: string };
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'hogtail-posthog-replay-'));
    site.browser = await launchChromium();
    site.dev = await startDevServer({ dataDir });
    proxy = await startProxy(site.dev, site);
    site.host = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    site.app = await startStaticServer();
    site.app.file('/posthog.js', repoRoot + 'node_modules/posthog-js/dist/array.full.js');
  });
  afterAll(async () => {
    await site.browser?.close();
    await site.app?.close();
    proxy?.closeAllConnections();
    await new Promise((resolve) => (proxy ? proxy.close(resolve) : resolve(undefined)));
    await site.dev?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
  site.page = (path, options = {}) => {
    const config = {
      api_host: site.host,
      capture_pageview: false,
      capture_pageleave: false,
      autocapture: false,
      disable_surveys: true,
      capture_performance: false,
      capture_dead_clicks: false,
      enable_heatmaps: false,
      opt_out_useragent_filter: true,
      ...options,
    };
    site.app.page(
      path,
      replayPage(
        `<script src="/posthog.js"></script><script>posthog.init(${JSON.stringify(POSTHOG_KEY)}, ${JSON.stringify(config)})</script>`,
      ),
    );
  };
  site.recorded = async (sessionId) => {
    const answer = await fetch(`${site.dev.url}/_dev/recordings/${sessionId}`);
    return answer.ok ? JSON.stringify(((await answer.json()) as { events?: unknown }).events ?? []) : '';
  };
  return site;
}
