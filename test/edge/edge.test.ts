// hogtail/edge as a Worker or Edge runtime gets it: the BUILT file, run in a node:vm context that
// holds only web globals (fetch, streams, CompressionStream, Web Crypto, timers): no require, no
// process, no Buffer. It must load, capture, compress and deliver to a real collector on 127.0.0.1.
import { readFileSync } from 'node:fs';
import vm from 'node:vm';
import { webcrypto } from 'node:crypto';
import { afterEach, expect, it } from 'vitest';
import { createCollector, type Collector } from '../../src/devserver';
import { ensureBuilt } from '../support/built';

let collector: Collector | undefined;
afterEach(async () => {
  await collector?.close();
  collector = undefined;
});

/** The web platform a Worker offers, and nothing of Node's. */
function webGlobals(): Record<string, unknown> {
  return {
    fetch, Request, Response, Headers, AbortController, AbortSignal, URL, URLSearchParams, TextEncoder, TextDecoder,
    ReadableStream, WritableStream, TransformStream, CompressionStream, DecompressionStream, Blob,
    crypto: webcrypto, setTimeout, clearTimeout, queueMicrotask, structuredClone, console,
  };
}

function loadEdgeBuild(): { PostHog: new (key: string, options: Record<string, unknown>) => any } {
  const code = readFileSync(ensureBuilt('dist/edge/index.cjs'), 'utf8');
  const context = vm.createContext(webGlobals());
  const module = { exports: {} as Record<string, unknown> };
  // CommonJS without `require`: a single import of a Node built-in would throw here.
  vm.runInContext(`(function (module, exports) {${code}\n})`, context)(module, module.exports);
  return module.exports as never;
}

it('the built edge file names no Node built-in, and runs without one', () => {
  const code = readFileSync(ensureBuilt('dist/edge/index.cjs'), 'utf8');
  expect(code).not.toMatch(/require\(|\bprocess\.|\bBuffer\b|from ['"]node:/);
  const context = vm.createContext(webGlobals());
  expect(vm.runInContext('typeof require + typeof process + typeof Buffer', context)).toBe('undefinedundefinedundefined');
  expect(typeof loadEdgeBuild().PostHog).toBe('function');
});

it('captures, identifies and reads flags in that context, delivering gzip batches to the collector', async () => {
  collector = await createCollector({ decide: () => ({ featureFlags: { beta: true }, featureFlagPayloads: {} }) as never });
  const { PostHog } = loadEdgeBuild();
  const client = new PostHog('phc_edge', { host: collector.url, flushAt: 100 });
  const errors: unknown[] = [];
  client.on('error', (error: unknown) => errors.push(error));
  client.capture({ distinctId: 'u1', event: 'edge event', properties: { route: '/api' } });
  client.identify({ distinctId: 'u1', properties: { plan: 'pro' } });
  expect(await client.getFeatureFlag('beta', 'u1')).toBe(true);
  await client.shutdown(5000);
  expect(errors).toEqual([]);
  const events = collector.events.filter((e) => e.event !== '$feature_flag_called');
  expect(events.map((e) => e.event)).toEqual(['edge event', '$identify']);
  expect(events[0]!.properties).toMatchObject({ route: '/api', $lib: 'hogtail-edge', distinct_id: 'u1' });
});

it('a Node-only option is named once as unsupported, not silently ignored', () => {
  const { PostHog } = loadEdgeBuild();
  const warnings: string[] = [];
  const original = console.warn;
  console.warn = (message: string) => warnings.push(message);
  try {
    const client = new PostHog('phc_edge', { host: 'http://127.0.0.1:1', persistence: { type: 'file', path: '/tmp/x' } });
    void client.shutdown(0);
  } finally {
    console.warn = original;
  }
  expect(warnings).toEqual([expect.stringMatching(/persistence is not available in hogtail\/edge/)]);
});
