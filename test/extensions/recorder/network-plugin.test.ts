// The network plugin's fetch wrapper (issue #24) over real HTTP, on Node's fetch against a server on
// 127.0.0.1: a call is answered as ever and recorded with its method, status, headers and bodies,
// credentials redacted both ways; the SDK's own requests to api_host are neither recorded nor
// touched; an app mask function that throws drops its records and is reported once; stopping puts
// the page's fetch back.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { networkPlugin } from '../../../src/extensions/recorder/network/plugin';
import type { CapturedRequest } from '../../../src/extensions/recorder/network/request-record';
import type { NetworkSettings } from '../../../src/extensions/recorder/network/settings';

let server: Server;
let base: string;
const ANSWER = '{"fruit":"banana"}';

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'Content-Type': 'application/json', 'Set-Cookie': 'sid=cookie-secret', 'X-Answer': 'yes' }).end(ANSWER);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const settings = (mask?: NetworkSettings['mask']): NetworkSettings => ({
  timing: false,
  headers: true,
  body: true,
  payloadHostDenyList: [],
  mask,
  warning: undefined,
});

/** A window with Node's own fetch and clock (no PerformanceObserver, no XMLHttpRequest). */
function nodeWindow() {
  const fetch = globalThis.fetch.bind(globalThis);
  return { fetch, performance: globalThis.performance, location: { href: base + '/' }, document: { readyState: 'loading' } };
}

function start(options: { mask?: NetworkSettings['mask'] } = {}) {
  const win = nodeWindow();
  const original = win.fetch;
  const requests: CapturedRequest[] = [];
  const failures: unknown[] = [];
  const plugin = networkPlugin({
    settings: settings(options.mask),
    host: base + '/ingest',
    endpoint: '/s/',
    maskFailed: (e) => failures.push(e),
  });
  const stop = plugin.observer!((payload: any) => requests.push(...payload.requests), win as any, {}) as () => void;
  return { win, original, requests, failures, stop };
}

/** Resolves once `check` holds (asked after each short wait), or with its last answer. */
async function until(check: () => boolean): Promise<boolean> {
  for (let asked = 0; asked < 200 && !check(); asked++) await new Promise((resolve) => setTimeout(resolve, 50));
  return check();
}

describe('the network plugin on a real server', () => {
  it('records a call with method, status, headers and bodies; credentials redacted; the answer unchanged', async () => {
    const { win, requests, stop } = start();
    const response = await win.fetch(base + '/api/orders', {
      method: 'post',
      headers: { Authorization: 'Bearer auth-secret', 'Content-Type': 'application/json' },
      body: '{"item":"apple"}',
    });
    expect(await response.text()).toBe(ANSWER);
    expect(await until(() => requests.length > 0)).toBe(true);
    const [record] = requests;
    expect(record).toMatchObject({
      name: base + '/api/orders',
      method: 'POST',
      status: 200,
      initiatorType: 'fetch',
      requestBody: '{"item":"apple"}',
      responseBody: ANSWER,
      requestHeaders: { authorization: 'redacted', 'content-type': 'application/json' },
      responseHeaders: { 'set-cookie': 'redacted', 'x-answer': 'yes' },
    });
    expect(Number.isInteger(record!.timestamp)).toBe(true);
    expect(JSON.stringify(requests)).not.toMatch(/auth-secret|cookie-secret/);
    stop();
  });

  it('leaves the SDK own requests alone: not recorded', async () => {
    const { win, requests, stop } = start();
    await (await win.fetch(base + '/ingest/batch/', { method: 'POST', body: '{"api_key":"phc_x"}' })).text();
    await (await win.fetch(base + '/ingest/s/?compression=gzip-js', { method: 'POST', body: 'x' })).text();
    await (await win.fetch(base + '/api/after')).text();
    expect(await until(() => requests.length > 0)).toBe(true);
    expect(requests.map((record) => record.name)).toEqual([base + '/api/after']);
    stop();
  });

  it('drops what a throwing mask function throws on and reports it once; keeps what it returns', async () => {
    const mask = (request: CapturedRequest) => {
      if (request.name?.includes('/boom')) throw new Error('mask bug');
      return { ...request, name: request.name?.replace(/\d+$/, ':id') };
    };
    const { win, requests, failures, stop } = start({ mask });
    for (const path of ['/boom', '/boom', '/api/orders/42']) await (await win.fetch(base + path)).text();
    expect(await until(() => requests.length > 0)).toBe(true);
    expect(requests.map((record) => record.name)).toEqual([base + '/api/orders/:id']);
    expect(failures).toHaveLength(1);
    stop();
  });

  it('puts the page fetch back when the recording stops', () => {
    const { win, original, stop } = start();
    expect(win.fetch).not.toBe(original);
    stop();
    expect(win.fetch).toBe(original);
  });
});
