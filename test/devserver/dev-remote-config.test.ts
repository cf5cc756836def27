// hogtail dev answers posthog-js's remote config, as JSON and as the script posthog-js may load,
// with what a fresh project says; a bad key in the path gets the capture rules' 401.
import { runInNewContext } from 'node:vm';
import { afterEach, expect, it } from 'vitest';
import { KEY } from './helpers';
import { devHarness } from './dev-support';

const harness = devHarness();
afterEach(() => harness.cleanup());

it('serves /array/<key>/config and config.js, saying whether any flag is defined', async () => {
  const { server } = await harness.start({ dataDir: harness.tempDir(), flags: [{ key: 'beta', rollout_percentage: 100 }] });
  const json = await fetch(`${server.url}/array/${KEY}/config`, { headers: { Origin: 'http://app.example' } });
  expect(json.status).toBe(200);
  expect(json.headers.get('access-control-allow-origin')).toBe('http://app.example');
  expect(await json.json()).toMatchObject({
    token: KEY,
    supportedCompression: ['gzip', 'gzip-js'],
    hasFeatureFlags: true,
    sessionRecording: { endpoint: '/s/' },
  });

  const script = await fetch(`${server.url}/array/${KEY}/config.js`);
  expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  const window: Record<string, any> = {};
  runInNewContext(await script.text(), { window });
  expect(window._POSTHOG_REMOTE_CONFIG[KEY].config).toMatchObject({ token: KEY, hasFeatureFlags: true });

  expect((await fetch(`${server.url}/array/phx_personal/config`)).status).toBe(401);
  expect(server.store.totalRejections()).toBe(0);
});

it('says hasFeatureFlags: false when no flag is defined', async () => {
  const { server } = await harness.start({ dataDir: harness.tempDir() });
  expect(await (await fetch(`${server.url}/array/${KEY}/config`)).json()).toMatchObject({ hasFeatureFlags: false });
});

it('answers 400, not 500, for a key in the path that is not valid percent-encoding, and keeps serving', async () => {
  const { server } = await harness.start({ dataDir: harness.tempDir() });
  for (const path of ['/array/%zz/config', '/array/%E0%A4%A/config.js', '/array/50%off/config']) {
    const reply = await fetch(server.url + path);
    expect(reply.status).toBe(400);
    expect(await reply.text()).toMatch(/not valid percent-encoding/);
  }
  // The management API's paths decode the same safe way (an unknown project is a 404 there).
  const management = await fetch(`${server.url}/api/environments/%zz/groups/`, { headers: { Authorization: 'Bearer x' } });
  expect(management.status).toBeLessThan(500);
  expect((await fetch(`${server.url}/array/${KEY}/config`)).status).toBe(200);
});

const FLAGS_BODY = JSON.stringify({ token: KEY, distinct_id: 'u1' });

it('turns web vitals, heatmaps and dead clicks on in both remote configs by default', async () => {
  const { server } = await harness.start({ dataDir: harness.tempDir() });
  const on = { capturePerformance: { web_vitals: true }, heatmaps: { outline: true }, captureDeadClicks: true };
  expect(await (await fetch(`${server.url}/array/${KEY}/config`)).json()).toMatchObject(on);
  const flags = await fetch(`${server.url}/flags/?v=2&config=true`, { method: 'POST', body: FLAGS_BODY });
  expect(await flags.json()).toMatchObject(on);
});

it('leaves each product off when the products option says so', async () => {
  const { server } = await harness.start({ dataDir: harness.tempDir(), products: { webVitals: false, deadClicks: false } });
  const off = { capturePerformance: false, heatmaps: { outline: true }, captureDeadClicks: false };
  expect(await (await fetch(`${server.url}/array/${KEY}/config`)).json()).toMatchObject(off);
  const flags = await fetch(`${server.url}/flags/?v=2&config=true`, { method: 'POST', body: FLAGS_BODY });
  expect(await flags.json()).toMatchObject(off);
});
