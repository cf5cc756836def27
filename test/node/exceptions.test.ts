// captureException, captureExceptionImmediate and enableExceptionAutocapture against a real local
// collector: the $exception shape from real thrown errors, and child processes that crash (and
// still exit as Node would) after their event arrived.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCollector, type Collector } from '../../src/devserver';
import { PostHog as PostHogNode } from 'posthog-node';
import { PostHog as EdgePostHog } from '../../src/edge/client';
import { PostHog } from '../../src/node';
import { ensureBuilt } from '../support/built';

let collector: Collector | undefined;
const clients: PostHog[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.shutdown(1000)));
  await collector?.close();
  collector = undefined;
});

async function setup() {
  collector = await createCollector();
  const client = new PostHog('phc_test_key', { host: collector.url, flushAt: 1000, flushOnExitTimeout: 0 });
  clients.push(client);
  return { collector, client };
}

type Entry = {
  type: string;
  value: string;
  mechanism: Record<string, unknown>;
  stacktrace?: { type: string; frames: Record<string, unknown>[] };
};
const entries = (event: { properties: Record<string, unknown> }) => event.properties.$exception_list as Entry[];

function chargeCard(): never {
  try {
    JSON.parse('{not json');
  } catch (error) {
    // eslint-disable-next-line preserve-caught-error -- the test needs a cause chain of this shape
    throw new Error('payment failed', { cause: new AggregateError([error, new RangeError('amount')], 'both gateways failed') });
  }
  throw new Error('unreachable');
}

describe('captureException', () => {
  it('sends a real thrown error with its causes in PostHog error-tracking shape', async () => {
    const { collector, client } = await setup();
    try {
      chargeCard();
    } catch (error) {
      client.captureException(error, 'user-1', { order: 7 });
    }
    await client.flush();
    const [event] = collector.events;
    expect(event).toMatchObject({ event: '$exception', distinct_id: 'user-1', properties: { order: 7, $exception_level: 'error' } });
    const list = entries(event!);
    expect(list.map((e) => [e.type, e.value, e.mechanism.type, e.mechanism.source])).toEqual([
      ['Error', 'payment failed', 'generic', undefined],
      ['AggregateError', 'both gateways failed', 'chained', 'cause'],
      ['SyntaxError', expect.stringContaining('JSON'), 'chained', 'member'],
      ['RangeError', 'amount', 'chained', 'member'],
    ]);
    expect(list[0]!.mechanism.handled).toBe(true);
    const top = list[0]!.stacktrace!.frames.at(-1)!;
    expect(top).toMatchObject({ function: 'chargeCard', platform: 'node:javascript', in_app: true });
    expect(top.filename).toMatch(/exceptions\.test\.ts$/);
    // JSON.parse itself is V8's, not the app's.
    expect(list[2]!.stacktrace!.frames.some((frame) => frame.in_app === true)).toBe(true);
  });

  it("without a distinct id sends a personless event; a thrown string gets the caller's frames", async () => {
    const { collector, client } = await setup();
    function reportBadInput() {
      client.captureException('TypeError: input must be a string');
    }
    reportBadInput();
    await client.flush();
    const [event] = collector.events;
    expect(event!.properties.$process_person_profile).toBe(false);
    expect(event!.distinct_id).toMatch(/^[0-9a-f-]{36}$/);
    const [entry] = entries(event!);
    expect(entry).toMatchObject({ type: 'TypeError', value: 'input must be a string', mechanism: { synthetic: true } });
    expect(entry!.stacktrace!.frames.at(-1)!.function).toBe('reportBadInput');
  });

  it('sends what posthog-node sends for the same error (entries, mechanisms, frames with names and source lines), so issues group alike', async () => {
    const { collector, client } = await setup();
    const peer = new PostHogNode('phc_test_key', { host: collector.url, flushAt: 1, fetchRetryCount: 0 });
    let thrown: unknown;
    try {
      chargeCard();
    } catch (error) {
      thrown = error;
    }
    client.captureException(thrown, 'user-1');
    peer.captureException(thrown, 'user-1');
    await client.flush();
    await peer.shutdown();
    expect(collector.events).toHaveLength(2);
    const [ours, theirs] = collector.events.map((event) => entries(event));
    const shape = (list: Entry[]) =>
      list.map((entry) => ({
        type: entry.type,
        value: entry.value,
        mechanism: entry.mechanism,
        frames: entry.stacktrace?.frames,
      }));
    expect(shape(ours!)).toEqual(shape(theirs!));
  });

  it('reads source lines from script files only, whatever paths a received stack names', async () => {
    const { collector, client } = await setup();
    const secret = join(mkdtempSync(join(tmpdir(), 'hogtail-ctx-')), 'credentials');
    writeFileSync(secret, 'password=hunter2\n');
    const forwarded = Object.assign(new Error('from another service'), {
      stack: `Error: from another service\n    at handler (${secret}:1:1)\n    at run (${__filename}:1:1)`,
    });
    client.captureException(forwarded, 'user-4');
    await client.flush();
    const frames = entries(collector.events[0]!)[0]!.stacktrace!.frames;
    expect(JSON.stringify(frames)).not.toContain('hunter2');
    expect(frames.at(-1)).not.toHaveProperty('context_line');
    expect(frames[0]).toHaveProperty('context_line');
  });

  it('takes the event uuid as posthog-node does (4th argument)', async () => {
    const { collector, client } = await setup();
    const uuid = '01890a5d-ac96-774b-bcce-b302099a8057';
    client.captureException(new Error('retried job'), 'user-3', {}, uuid);
    await client.flush();
    expect(collector.events.map((e) => e.uuid)).toEqual([uuid]);
  });

  it('captureExceptionImmediate resolves once the event is at the server', async () => {
    const { collector, client } = await setup();
    await client.captureExceptionImmediate(new Error('now'), 'user-2');
    expect(collector.events.map((e) => [e.event, e.properties.$exception_list])).toEqual([
      ['$exception', [expect.objectContaining({ type: 'Error', value: 'now' })]],
    ]);
  });
});

describe('hogtail/edge', () => {
  it('captureException and captureExceptionImmediate send the same shape (frames as V8 gives them)', async () => {
    collector = await createCollector();
    const edge = new EdgePostHog('phc_test_key', { host: collector.url, flushAt: 1000 });
    try {
      chargeCard();
    } catch (error) {
      edge.captureException(error, 'edge-user');
    }
    await edge.captureExceptionImmediate('edge string');
    await edge.shutdown(1000);
    const [first, second] = collector.events;
    expect(first).toMatchObject({ event: '$exception', distinct_id: 'edge-user' });
    const list = entries(first!);
    expect(list.map((e) => e.type)).toEqual(['Error', 'AggregateError', 'SyntaxError', 'RangeError']);
    expect(list[0]!.stacktrace!.frames.at(-1)).toMatchObject({ function: 'chargeCard', platform: 'node:javascript', in_app: true });
    expect(second!.properties.$process_person_profile).toBe(false);
    expect(entries(second!)[0]).toMatchObject({
      type: 'Error',
      value: 'edge string',
      mechanism: { type: 'generic', handled: true, synthetic: true },
    });
  });
});

function runScript(code: string, args: string[] = []): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const entry = ensureBuilt();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [
      ...args,
      '--input-type=module',
      '-e',
      `import { PostHog } from ${JSON.stringify(entry)};\n${code}`,
    ]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (exitCode) => resolve({ code: exitCode, stdout, stderr }));
  });
}

const client = (url: string) =>
  `new PostHog('phc_k', { host: ${JSON.stringify(url)}, enableExceptionAutocapture: true, flushInterval: 60000 })`;

describe('enableExceptionAutocapture (child processes)', () => {
  it('an uncaught exception is delivered, then the process still dies with code 1 and the error printed', async () => {
    collector = await createCollector();
    const result = await runScript(`
      ${client(collector.url)};
      function startServer() { throw new TypeError('port is not a number'); }
      setTimeout(startServer, 1);
      setTimeout(() => console.log('still alive'), 2000);
    `);
    expect(result.code).toBe(1);
    expect(result.stdout).not.toContain('still alive');
    expect(result.stderr).toContain('TypeError: port is not a number');
    const [event] = collector.events;
    expect(event!.event).toBe('$exception');
    expect(event!.properties.$process_person_profile).toBe(false);
    const [entry] = entries(event!);
    expect(entry).toMatchObject({
      type: 'TypeError',
      value: 'port is not a number',
      mechanism: { type: 'onuncaughtexception', handled: false },
    });
    expect(entry!.stacktrace!.frames.at(-1)).toMatchObject({
      function: expect.stringContaining('startServer'),
      platform: 'node:javascript',
    });
  });

  it('an unhandled rejection with a non-Error reason is delivered and still crashes the process', async () => {
    collector = await createCollector();
    const result = await runScript(`
      ${client(collector.url)};
      Promise.reject({ code: 'E_CONFIG', message: 'config missing' });
    `);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('config missing');
    expect(collector.events).toHaveLength(1);
    expect(entries(collector.events[0]!)[0]).toMatchObject({
      type: 'Error',
      value: 'config missing',
      mechanism: { type: 'onunhandledrejection', handled: false },
    });
  });

  it('with --unhandled-rejections=warn a rejection is captured and the process lives on', async () => {
    collector = await createCollector();
    const result = await runScript(
      `
      const posthog = ${client(collector.url)};
      Promise.reject(new Error('ignored by policy'));
      setTimeout(() => { console.log('still alive'); posthog.shutdown(); }, 200);
    `,
      ['--unhandled-rejections=warn'],
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('still alive');
    expect(collector.events.map((e) => entries(e)[0]!.value)).toEqual(['ignored by policy']);
  });

  it('an app with its own uncaughtException listener keeps running; a throw loop is rate-limited per type and counted', async () => {
    collector = await createCollector();
    const result = await runScript(`
      const posthog = ${client(collector.url)};
      posthog.on('error', () => {});
      let seen = 0;
      process.on('uncaughtException', () => seen++);
      for (let i = 0; i < 30; i++) setTimeout(() => { throw new TypeError('render failed ' + i); }, 1);
      setTimeout(() => { throw new RangeError('other type'); }, 1);
      setTimeout(async () => {
        await posthog.shutdown();
        console.log(JSON.stringify({ seen, dropped: posthog.stats().dropped }));
      }, 300);
    `);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ seen: 31, dropped: { rate_limited: 20 } });
    const types = collector.events.map((e) => entries(e)[0]!.type);
    expect(types.filter((t) => t === 'TypeError')).toHaveLength(10);
    expect(types.filter((t) => t === 'RangeError')).toHaveLength(1);
  });

  it('an error the app captured itself and rethrew is not sent twice', async () => {
    collector = await createCollector();
    const result = await runScript(`
      const posthog = ${client(collector.url)};
      setTimeout(() => {
        const error = new Error('handled then rethrown');
        posthog.captureException(error, 'user-9');
        throw error;
      }, 1);
    `);
    expect(result.code).toBe(1);
    expect(collector.events.map((e) => [e.distinct_id, entries(e)[0]!.mechanism.type])).toEqual([['user-9', 'generic']]);
  });
});
