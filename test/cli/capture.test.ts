// `hogtail capture` against the real collector: one event, typed properties, and a clear non-zero
// exit when it was not delivered.
import { afterEach, expect, it } from 'vitest';
import { parseProperties, runCaptureCommand } from '../../src/cli/capture-command';
import { createCollector, type Collector } from '../../src/devserver';
import { runCommand } from '../support/command-io';
import { createFaultCollector } from '../support/fault-collector';

let collector: Collector | undefined;
afterEach(async () => {
  await collector?.close();
  collector = undefined;
});

it('sends one event with string and typed properties, key and host from the environment', async () => {
  collector = await createCollector();
  const result = await runCommand(
    runCaptureCommand,
    [
      'backup finished',
      '--distinct-id',
      'cron@host1',
      '--prop',
      'zip=007',
      '--prop',
      'files:=42',
      '--prop',
      'ok:=true',
      '--prop',
      'note=a=b',
      '--timestamp',
      '2024-05-01T12:00:00Z',
    ],
    { env: { HOGTAIL_API_KEY: 'phc_env', HOGTAIL_HOST: collector.url } },
  );
  expect(result.code, result.stderr).toBe(0);
  expect(collector.events).toHaveLength(1);
  expect(collector.events[0]).toMatchObject({
    event: 'backup finished',
    distinct_id: 'cron@host1',
    api_key: 'phc_env',
    timestamp: '2024-05-01T12:00:00.000Z',
    historical_migration: false,
  });
  expect(collector.events[0]!.properties).toMatchObject({ zip: '007', files: 42, ok: true, note: 'a=b' });
});

it('flags win over the environment', async () => {
  collector = await createCollector();
  const result = await runCommand(runCaptureCommand, ['x', '--distinct-id', 'u', '--api-key', 'phc_flag', '--host', collector.url], {
    env: { HOGTAIL_API_KEY: 'phc_env', HOGTAIL_HOST: 'http://127.0.0.1:1' },
  });
  expect(result.code, result.stderr).toBe(0);
  expect(collector.events[0]!.api_key).toBe('phc_flag');
});

it('exits 1 with the reason when the server will not take the event', async () => {
  collector = await createFaultCollector({ plan: () => ({ kind: 'status', status: 401 }) });
  const result = await runCommand(runCaptureCommand, ['x', '--distinct-id', 'u', '--api-key', 'phc_bad', '--host', collector.url]);
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(/not delivered: .*401/);
});

it('exits 1 when the server is unreachable, after its retries', async () => {
  collector = await createFaultCollector({ plan: () => ({ kind: 'status', status: 503 }) });
  const result = await runCommand(runCaptureCommand, [
    'x',
    '--distinct-id',
    'u',
    '--api-key',
    'phc_k',
    '--host',
    collector.url,
    '--retries',
    '1',
  ]);
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(/not delivered: .*503/);
});

it('exits 2 for a wrong command line, before sending anything', async () => {
  const noUser = await runCommand(runCaptureCommand, ['x', '--api-key', 'phc_k']);
  expect(noUser.code).toBe(2);
  expect(noUser.stderr).toMatch(/--distinct-id is required/);
  const noKey = await runCommand(runCaptureCommand, ['x', '--distinct-id', 'u']);
  expect(noKey.code).toBe(2);
  expect(noKey.stderr).toMatch(/HOGTAIL_API_KEY/);
  const badUuid = await runCommand(runCaptureCommand, [
    'x',
    '--distinct-id',
    'u',
    '--api-key',
    'phc_k',
    '--host',
    'http://127.0.0.1:1',
    '--uuid',
    'nope',
  ]);
  expect(badUuid.code).toBe(2);
  expect(badUuid.stderr).toMatch(/uuid/);
  expect(() => parseProperties(['n:=not json'])).toThrow(/needs JSON/);
});

it('-h is --help, and the help states the exit codes', async () => {
  const long = await runCommand(runCaptureCommand, ['--help']);
  const short = await runCommand(runCaptureCommand, ['-h']);
  expect(short).toEqual(long);
  expect(long.code).toBe(0);
  expect(long.stdout).toMatch(/Usage: hogtail capture/);
  expect(long.stdout).toMatch(/Exit codes:\n\s+0\s+delivered\n\s+1\s+not delivered.*\n\s+2\s+wrong command line/);
});

it('keeps a property named __proto__ (string or JSON), and does not touch any prototype', async () => {
  collector = await createCollector();
  const result = await runCommand(runCaptureCommand, [
    'x',
    '--distinct-id',
    'u',
    '--prop',
    '__proto__=kept',
    '--prop',
    'constructor:={"a":1}',
    '--api-key',
    'phc_k',
    '--host',
    collector.url,
  ]);
  expect(result.code, result.stderr).toBe(0);
  const properties = collector.events[0]!.properties;
  expect(Object.getOwnPropertyDescriptor(properties, '__proto__')?.value).toBe('kept');
  expect(Object.getOwnPropertyDescriptor(properties, 'constructor')?.value).toEqual({ a: 1 });
  const typed = parseProperties(['__proto__:={"polluted":true}']);
  expect(Object.getPrototypeOf(typed)).toBe(Object.prototype);
  expect(Object.getOwnPropertyDescriptor(typed, '__proto__')?.value).toEqual({ polluted: true });
});
