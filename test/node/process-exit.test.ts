// Timers never keep a process alive, and a script that forgets shutdown() still delivers
// (docs/guarantees.md §5). Run as real child processes against a real collector.
import { spawn } from 'node:child_process';
import { afterEach, expect, it } from 'vitest';
import { createCollector, type Collector } from '../../src/devserver';
import { createFaultCollector } from '../support/fault-collector';
import { ensureBuilt } from '../support/built';

let collector: Collector | undefined;
afterEach(async () => {
  await collector?.close();
  collector = undefined;
});

function runScript(code: string): Promise<{ code: number | null; stderr: string }> {
  const entry = ensureBuilt();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', `import { PostHog } from ${JSON.stringify(entry)};\n${code}`]);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (exitCode) => resolve({ code: exitCode, stderr }));
  });
}

it('a script that captures and never calls shutdown() exits by itself and its events arrive', async () => {
  collector = await createCollector();
  const result = await runScript(`
    const client = new PostHog('phc_k', { host: ${JSON.stringify(collector.url)}, flushInterval: 60000, flushAt: 1000 });
    for (let i = 0; i < 25; i++) client.capture({ distinctId: 'u', event: 'from script', properties: { i } });
  `);
  expect(result.code).toBe(0);
  expect(collector.events.map((e) => e.properties.i)).toEqual(Array.from({ length: 25 }, (_, i) => i));
});

it('with the server hanging, the process still exits (bounded by flushOnExitTimeout) and says what was lost', async () => {
  collector = await createFaultCollector({ plan: () => ({ kind: 'hang' }) });
  const result = await runScript(`
    const client = new PostHog('phc_k', { host: ${JSON.stringify(collector.url)}, flushOnExitTimeout: 300, requestTimeout: 60000 });
    client.capture({ distinctId: 'u', event: 'stuck' });
  `);
  expect(result.code).toBe(0);
  expect(result.stderr).toMatch(/DroppedEventsError: 1 event\(s\) were still undelivered/);
});

it('a client with pending retries does not keep the process alive when exit flushing is off', async () => {
  collector = await createFaultCollector({ plan: () => ({ kind: 'status', status: 503 }) });
  const result = await runScript(`
    const client = new PostHog('phc_k', { host: ${JSON.stringify(collector.url)}, flushOnExitTimeout: 0, flushAt: 1, retry: { initialDelayMs: 60000 } });
    client.on('error', () => {});
    client.capture({ distinctId: 'u', event: 'x' });
  `);
  expect(result.code).toBe(0);
});

it('with exit flushing off, what is still queued at exit is reported, not lost silently', async () => {
  collector = await createFaultCollector({ plan: () => ({ kind: 'status', status: 503 }) });
  const result = await runScript(`
    const client = new PostHog('phc_k', { host: ${JSON.stringify(collector.url)}, flushOnExitTimeout: 0, flushAt: 1, retry: { initialDelayMs: 60000 } });
    client.capture({ distinctId: 'u', event: 'x' });
  `);
  expect(result.code).toBe(0);
  expect(result.stderr).toMatch(/DroppedEventsError: 1 event\(s\) were still undelivered/);
});
