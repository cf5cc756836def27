// `hogtail import` and `hogtail capture` as real processes against servers that misbehave (issue 16,
// item 1): the client's retry timers do not keep Node alive, so only a real process shows whether a
// command waits for its outcome, honours --retries, and says what happened instead of exiting 0.
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';

import { tempDir } from '../support/command-io';
import { createFaultCollector, type FaultCollector } from '../support/fault-collector';
import { buildCommandScript } from '../support/import-cli';

let script: string;
beforeAll(async () => {
  script = await buildCommandScript();
});
afterAll(() => rmSync(dirname(script), { recursive: true, force: true }));

let collector: FaultCollector | undefined;
afterEach(async () => {
  await collector?.close();
  collector = undefined;
});

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(args: string[], cwd: string): Promise<Outcome> {
  const child = spawn(process.execPath, [script, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** A port nothing listens on: bound, then released. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function writeRows(dir: string, count: number): void {
  const lines = Array.from({ length: count }, (_, i) =>
    JSON.stringify({
      event: 'e',
      distinct_id: `u${i % 7}`,
      timestamp: new Date(Date.UTC(2024, 0, 1) + i * 1000).toISOString(),
      properties: { i },
    }),
  );
  writeFileSync(join(dir, 'events.ndjson'), lines.join('\n') + '\n');
}

const importArgs = (url: string, ...extra: string[]) => [
  'import',
  'events.ndjson',
  '--api-key',
  'phc_test',
  '--host',
  url,
  '--batch-size',
  '100',
  '--checkpoint-rows',
  '100',
  ...extra,
];

it('import: 503 twice, then the server recovers: retries as --retries allows and delivers everything, exit 0', async () => {
  const dir = tempDir();
  writeRows(dir, 250);
  collector = await createFaultCollector({ plan: (index) => (index < 2 ? { kind: 'status', status: 503, retryAfter: '0' } : undefined) });
  const result = await run(importArgs(collector.url, '--retries', '3'), dir);
  expect(result.code, result.stderr).toBe(0);
  expect(collector.events.map((e) => e.properties.i)).toEqual(Array.from({ length: 250 }, (_, i) => i));
  expect(result.stdout).toMatch(/import complete: 250 sent/);
});

it('import: host down: exit 1 and the reason, never a silent 0', async () => {
  const dir = tempDir();
  writeRows(dir, 10);
  const result = await run(importArgs(`http://127.0.0.1:${await deadPort()}`, '--retries', '2'), dir);
  expect(result.code).toBe(1);
  expect(result.stdout).toMatch(/import stopped: 0 sent/);
  expect(result.stderr).toMatch(/did not accept events after 2 attempts \(.*ECONNREFUSED.*\)/);
  expect(result.stderr).not.toMatch(/retry \d+ in/);
});

it('import: the server starts failing part way: exit 1, the summary says how many were sent', async () => {
  const dir = tempDir();
  writeRows(dir, 1_000);
  collector = await createFaultCollector({ plan: (index) => (index >= 3 ? { kind: 'status', status: 429, retryAfter: '0' } : undefined) });
  const result = await run(importArgs(collector.url, '--retries', '3'), dir);
  expect(result.code).toBe(1);
  expect(collector.events).toHaveLength(300);
  expect(collector.log.filter((entry) => entry.fault !== undefined).length).toBeGreaterThanOrEqual(3);
  expect(result.stdout).toMatch(/import stopped: 300 sent/);
  expect(result.stderr).toMatch(/429/);
  expect(result.stderr).toMatch(/--resume/);
});

it('import: a server that never answers: each attempt times out, exit 1', async () => {
  const dir = tempDir();
  writeRows(dir, 10);
  collector = await createFaultCollector({ plan: () => ({ kind: 'hang' }) });
  const result = await run(importArgs(collector.url, '--retries', '2', '--timeout', '200'), dir);
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(/did not accept events after 2 attempts \(no response \(no response within 200 ms\)\)/);
  // No more requests than --retries allows. How many of them the server read before the command
  // gave up depends on the machine's speed: an attempt can time out before it even connects.
  expect(collector.log.length).toBeLessThanOrEqual(2);
});

it('capture: 503 then recovery is delivered (exit 0); host down and never answering exit 1 with the reason', async () => {
  const dir = tempDir();
  collector = await createFaultCollector({ plan: (index) => (index < 2 ? { kind: 'status', status: 503, retryAfter: '0' } : undefined) });
  const recovered = await run(
    ['capture', 'deploy', '--distinct-id', 'ci', '--api-key', 'phc_test', '--host', collector.url, '--retries', '3'],
    dir,
  );
  expect(recovered.code, recovered.stderr).toBe(0);
  expect(collector.events.map((e) => e.event)).toEqual(['deploy']);
  await collector.close();

  const down = await run(
    [
      'capture',
      'deploy',
      '--distinct-id',
      'ci',
      '--api-key',
      'phc_test',
      '--host',
      `http://127.0.0.1:${await deadPort()}`,
      '--retries',
      '2',
    ],
    dir,
  );
  expect(down.code).toBe(1);
  expect(down.stderr).toMatch(/not delivered: .*ECONNREFUSED.*gave up after 2 attempt\(s\)/);

  collector = await createFaultCollector({ plan: () => ({ kind: 'hang' }) });
  const silent = await run(
    ['capture', 'deploy', '--distinct-id', 'ci', '--api-key', 'phc_test', '--host', collector.url, '--retries', '2', '--timeout', '200'],
    dir,
  );
  expect(silent.code).toBe(1);
  expect(silent.stderr).toMatch(/not delivered: no response \(no response within 200 ms\) \(gave up after 2 attempt\(s\)\)/);
  expect(collector.log.length).toBeLessThanOrEqual(2); // as for import: at most --retries requests
});
