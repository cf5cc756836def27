// @vitest-environment happy-dom
// How the browser client starts autocapture: after init() unless `autocapture: false`, through the
// client's capture(), paused by the server's autocapture_opt_out (remembered for the next page), and
// a warning, by name, when a build without autocapture (the lite script tag) is asked for it.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AutocaptureStart } from '../../src/browser/features/autocapture';
import { createHogtail } from '../../src/browser/api/drop-in';
import { tick } from './helpers';

let KEY = 'phc_wiring';
let tests = 0;

/** A flags answer as the server sends it (`/flags/?v=2&config=true`), with the autocapture switch when given. */
function serveDecide(optOut?: boolean) {
  (globalThis as any).fetch = vi.fn(async (url: string) => ({
    status: 200,
    text: async () =>
      url.includes('/flags/')
        ? JSON.stringify({ featureFlags: {}, ...(optOut === undefined ? {} : { autocapture_opt_out: optOut }) })
        : '{"status":"Ok"}',
    headers: { get: () => null },
  }));
}

function start(config: Record<string, unknown>, withLoader = true) {
  const started: AutocaptureStart[] = [];
  const client = createHogtail(withLoader ? () => (options) => (started.push(options), () => undefined) : undefined);
  const errors: string[] = [];
  client.on('error', (error) => errors.push(error.message));
  client.init(KEY, { api_host: 'https://collector.test', capture_pageview: false, ...config });
  return { client, started, errors };
}

describe('autocapture wiring in the browser client', () => {
  beforeEach(() => {
    localStorage.clear();
    KEY = `phc_wiring_${++tests}`;
  });

  it('starts after init with the config, capturing through the client', async () => {
    serveDecide();
    const { client, started } = start({ mask_all_text: true });
    await tick();
    expect(started).toHaveLength(1);
    expect(started[0]!.initOptions).toMatchObject({ mask_all_text: true });
    expect(started[0]!.capture).toBe(client.capture);
    expect(started[0]!.isEnabled()).toBe(true);
  });

  it('autocapture: false never starts it', async () => {
    serveDecide();
    const { started } = start({ autocapture: false });
    await tick();
    expect(started).toEqual([]);
  });

  it("the server's autocapture_opt_out pauses it, and the next page starts paused", async () => {
    serveDecide(true);
    const first = start({});
    await vi.waitFor(() => expect(first.started[0]?.isEnabled()).toBe(false));
    await tick(); // the state is written at the end of the task
    serveDecide(); // the next page's answer never comes with the switch: the stored one holds
    const second = start({ advanced_disable_decide: true });
    await tick();
    expect(second.started[0]!.isEnabled()).toBe(false);
    serveDecide(false);
    const third = start({});
    await vi.waitFor(() => expect(third.started[0]?.isEnabled()).toBe(true));
  });

  it('a loader or starter that fails is reported, never thrown into the page', async () => {
    serveDecide();
    for (const loader of [
      () => Promise.reject(new Error('chunk missing')),
      () => () => {
        throw new Error('bad start');
      },
    ]) {
      const client = createHogtail(loader as never);
      const errors: string[] = [];
      client.on('error', (error) => errors.push(error.message));
      client.init(KEY, { api_host: 'https://collector.test', capture_pageview: false });
      await vi.waitFor(() => expect(errors).toHaveLength(1));
      expect(errors[0]).toMatch(/^autocapture did not start: Error: (chunk missing|bad start)$/);
    }
  });

  it('a build without autocapture warns when the app asks for it, and only then', async () => {
    serveDecide();
    expect(start({ autocapture: { url_allowlist: ['x'] } }, false).errors).toEqual([
      'autocapture is not in this build (the lite script tag); use hogtail.iife.js for it',
    ]);
    expect(start({}, false).errors).toEqual([]);
    expect(start({ autocapture: false }, false).errors).toEqual([]);
  });
});
