// The root import on a server: every method the browser client has exists here, does nothing and
// never throws, whatever it is given; init() says so once, on the debug console.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHogtail } from '../../src/browser/api/drop-in';
import * as browserEntry from '../../src/browser/index';
import * as serverEntry from '../../src/ssr/index';
import { createNoopHogtail } from '../../src/ssr/noop-client';

afterEach(() => vi.restoreAllMocks());

describe('the server-side no-op client', () => {
  it('has every method the browser client has, and the same entry exports', () => {
    expect(Object.keys(createNoopHogtail()).sort()).toEqual(Object.keys(createHogtail()).sort());
    expect(Object.keys(serverEntry).sort()).toEqual(Object.keys(browserEntry).sort());
  });

  it('init() returns the client and every method survives any arguments', async () => {
    vi.spyOn(console, 'debug').mockImplementation(() => undefined);
    const client = createNoopHogtail();
    expect(client.init('phc_x', { api_host: 'http://127.0.0.1:1' })).toBe(client);
    const odd = [undefined, null, 42, 'x', {}, [], () => undefined, Symbol('s')];
    const methods = Object.entries({ ...client, ...client.people }).filter(([, member]) => typeof member === 'function');
    for (const [name, method] of methods) {
      expect(() => (method as (...args: unknown[]) => unknown)(...odd), name).not.toThrow();
    }
    await expect(client.flush()).resolves.toBeUndefined();
  });

  it('answers with the empty values a page sees before anything is known', () => {
    const client = createNoopHogtail();
    expect(client.get_distinct_id()).toBe('');
    expect(client.getFeatureFlag('beta')).toBeUndefined();
    expect(client.isFeatureEnabled('beta')).toBeUndefined();
    expect(client.getFeatureFlagPayload('beta')).toBeUndefined();
    expect(client.has_opted_out_capturing()).toBe(false);
    expect(client.stats()).toMatchObject({ enqueued: 0, delivered: 0, pending: 0 });
    expect(typeof client.onFeatureFlags(() => undefined)).toBe('function');
  });

  it('logs one debug line per process, however often init() is called', async () => {
    vi.resetModules();
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => undefined);
    const { createNoopHogtail: fresh } = await import('../../src/ssr/noop-client');
    fresh().init('phc_x');
    fresh().init('phc_y');
    expect(debug).toHaveBeenCalledTimes(1);
    expect(String(debug.mock.calls[0]?.[0])).toMatch(/^\[hogtail\] no window here/);
  });
});
