// The flag-definitions poll of local evaluation against a real server on 127.0.0.1 (issue 27, items
// 9-12): its body is read with a cap, it goes through the `fetch` option like every other request,
// it honours Retry-After and backs off as the batch sender does (on a controlled clock, never a
// measured time), and a 402 drops the definitions so the server decides, as posthog-node does.
import type { ServerResponse } from 'node:http';
import { afterEach, expect, it, vi } from 'vitest';
import { PostHog } from '../../src/node';
import { PERSONAL_KEY, startDefinitionsServer, type DefinitionsServer } from './support/definitions-server';

const DEFINITIONS = {
  flags: [
    {
      id: 3,
      key: 'pro-only',
      active: true,
      filters: { groups: [{ properties: [{ key: 'plan', value: 'pro', type: 'person' }], rollout_percentage: 100 }] },
    },
  ],
};
const PRO = { personProperties: { plan: 'pro' }, sendFeatureFlagEvents: false };

let server: DefinitionsServer | undefined;
const clients: PostHog[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(clients.splice(0).map((client) => client.shutdown(0)));
  await server?.close();
  server = undefined;
});

async function setup(options: ConstructorParameters<typeof PostHog>[1] = {}) {
  server = await startDefinitionsServer(DEFINITIONS);
  server.remote = () => ({ 'pro-only': 'from-server' });
  const errors: string[] = [];
  const client = new PostHog('phc_project', {
    host: server.url,
    personalApiKey: PERSONAL_KEY,
    flushAt: 1000,
    flushOnExitTimeout: 0,
    ...options,
  });
  client.on('error', (error) => errors.push(error.message));
  clients.push(client);
  return { server, client, errors };
}

/** Lets real I/O (the server's answer, its handling) run while the clock stands still. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

it('reads a definitions answer only up to its cap: an endless body ends the request and is reported, not held in memory', async () => {
  const { server, client, errors } = await setup({ requestTimeout: 60_000 });
  let written = 0;
  let wroteAll = false;
  const limit = 80 * 1024 * 1024; // past the 64 MiB definitions cap, then the server gives up
  const filler = '{"id":1,"key":"filler","active":false,"filters":{"groups":[]}},'.repeat(1024);
  server.respond = (res: ServerResponse) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.write('{"flags":[');
    const pump = () => {
      while (!res.destroyed && written < limit) {
        written += filler.length;
        if (!res.write(filler)) return void res.once('drain', pump);
      }
      if (written >= limit) {
        wroteAll = true;
        res.destroy();
      }
    };
    pump();
    return true;
  };
  expect(await client.waitForLocalEvaluationReady(60_000)).toBe(false);
  expect(wroteAll).toBe(false);
  expect(errors).toEqual([expect.stringMatching(/flag definitions from .* larger than 64 MiB.*cap.*evaluated by the server/)]);
});

it('sends the definitions request through the fetch option, as every other request', async () => {
  const seen: string[] = [];
  const { client } = await setup({
    fetch: (url, init) => {
      seen.push(`${init.method ?? 'GET'} ${new URL(url).pathname}`);
      return fetch(url, init);
    },
  });
  expect(await client.waitForLocalEvaluationReady(5000)).toBe(true);
  expect(seen).toContain('GET /flags/definitions');
});

it('after a 429 with Retry-After: 3 polls again only after 3 s, then at the interval', async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  const { server, client } = await setup({ featureFlagsPollingInterval: 60_000 });
  server.respond = (res, index) => index === 0 && (res.writeHead(429, { 'Retry-After': '3' }).end('rate limited'), true);
  expect(await client.waitForLocalEvaluationReady(120_000)).toBe(false);
  expect(client.definitionRequests).toBe(1);
  await vi.advanceTimersByTimeAsync(2_999);
  expect(client.definitionRequests).toBe(1);
  await vi.advanceTimersByTimeAsync(1);
  expect(client.definitionRequests).toBe(2);
  while (!client.isLocalEvaluationReady()) await settle();
  // Loaded: the next poll is a whole interval away.
  await vi.advanceTimersByTimeAsync(59_999);
  expect(client.definitionRequests).toBe(2);
  await vi.advanceTimersByTimeAsync(1);
  expect(client.definitionRequests).toBe(3);
});

it('backs off a failing poll as the batch sender does: each wait between half and all of 500 ms, 1 s, 2 s, 4 s', async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  const { server, client } = await setup({ featureFlagsPollingInterval: 60_000 });
  server.respond = (res) => (res.writeHead(503).end('unavailable'), true);
  await client.waitForLocalEvaluationReady(120_000);
  for (const [attempt, full] of [500, 1_000, 2_000, 4_000].entries()) {
    const before = client.definitionRequests;
    expect(before).toBe(attempt + 1);
    // The answer to the last request must be in before the clock moves.
    while (server.definitionRequests().length < before) await settle();
    await settle();
    await vi.advanceTimersByTimeAsync(full / 2 - 1);
    expect(client.definitionRequests, `after failure ${attempt + 1}`).toBe(before);
    await vi.advanceTimersByTimeAsync(full / 2 + 1);
    expect(client.definitionRequests, `after failure ${attempt + 1}`).toBe(before + 1);
  }
});

it('after a 402 (flag quota exceeded) drops the definitions and asks the server, until the definitions are served again', async () => {
  const { server, client, errors } = await setup();
  expect(await client.waitForLocalEvaluationReady(5000)).toBe(true);
  expect(await client.getFeatureFlag('pro-only', 'u1', PRO)).toBe(true);

  server.respond = (res) => (
    res.writeHead(402, { 'Content-Type': 'application/json' }).end('{"type":"quota_limited","code":"payment_required"}'), true
  );
  await client.reloadFeatureFlags();
  expect(client.isLocalEvaluationReady()).toBe(false);
  expect(await client.getFeatureFlag('pro-only', 'u1', PRO)).toBe('from-server');
  expect(server.remoteRequests()).toHaveLength(1);
  expect(errors).toEqual([expect.stringMatching(/402.*quota/)]);

  // Billing fixed: the next poll asks afresh (no If-None-Match: a 304 would restore nothing).
  server.respond = undefined;
  await client.reloadFeatureFlags();
  expect(server.definitionRequests().at(-1)).toMatchObject({ status: 200 });
  expect(server.definitionRequests().at(-1)?.headers['if-none-match']).toBeUndefined();
  expect(client.isLocalEvaluationReady()).toBe(true);
  expect(await client.getFeatureFlag('pro-only', 'u2', PRO)).toBe(true);
});
