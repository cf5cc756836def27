// Node exception capture under input an attacker or an unlucky app can produce: stacks naming files
// whose names are not valid percent-encoding (`50%off.cjs`, `%zz` in a message), and messages that
// carry stack-shaped lines pointing at secret files. Real child processes and a real collector: the
// app's own listeners must still run, and what reaches the collector must hold no secret.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCollector, type Collector, type ReceivedEvent } from '../../src/devserver';
import { PostHog } from '../../src/node';
import { ensureBuilt, repoRoot } from '../support/built';

let collector: Collector | undefined;
const dirs: string[] = [];

afterEach(async () => {
  await collector?.close();
  collector = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'hogtail-exc-'));
  dirs.push(dir);
  return dir;
}

type Entry = { type: string; value: string; stacktrace?: { frames: Record<string, unknown>[] } };
const entriesOf = (event: ReceivedEvent) => event.properties.$exception_list as Entry[];

/** Runs `code` as an ES module in a fresh Node process, `PostHog` imported from `from`. */
function runScript(from: string, code: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', `import { PostHog } from ${JSON.stringify(from)};\n${code}`], {
      cwd: repoRoot,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (exitCode) => resolve({ code: exitCode, stdout, stderr }));
  });
}

/**
 * An app that stays up through its own listeners, with a module whose file name holds a `%` that is
 * no percent-encoding, and a message carrying a stack-shaped line with `%zz`.
 */
function percentScript(host: string, dir: string): string {
  const module = join(dir, '50%off.cjs');
  writeFileSync(module, 'module.exports = function applyDiscount(reason) {\n  throw new Error(reason);\n};\n');
  return `
    import { createRequire } from 'node:module';
    const posthog = new PostHog('phc_k', { host: ${JSON.stringify(host)}, enableExceptionAutocapture: true, flushInterval: 60000, flushAt: 1000 });
    posthog.on?.('error', () => {});
    const seen = [];
    process.on('uncaughtException', (error) => seen.push('exception: ' + error.message.split('\\n')[0]));
    process.on('unhandledRejection', (error) => seen.push('rejection: ' + error.message.split('\\n')[0]));
    const applyDiscount = createRequire(${JSON.stringify(join(dir, 'app.js'))})(${JSON.stringify(module)});
    try { applyDiscount('captured by the app'); } catch (error) { posthog.captureException(error, 'user-1'); }
    setTimeout(() => applyDiscount('uncaught in 50%off'), 1);
    setTimeout(() => { throw new Error('bad body: x\\n    at f (/srv/app/%zz.js:1:1)'); }, 1);
    setTimeout(() => Promise.reject(new Error('bad query: y\\n    at g (/srv/app/%zz.js:2:2)')), 1);
    setTimeout(async () => {
      await posthog.shutdown();
      console.log(JSON.stringify(seen.sort()));
    }, 500);
  `;
}

const EXPECTED_SEEN = ['exception: bad body: x', 'exception: uncaught in 50%off', 'rejection: bad query: y'];
const EXPECTED_VALUES = [
  'bad body: x\n    at f (/srv/app/%zz.js:1:1)',
  'bad query: y\n    at g (/srv/app/%zz.js:2:2)',
  'captured by the app',
  'uncaught in 50%off',
];

describe('exception autocapture with `%` in file names and messages (child processes)', () => {
  it('keeps the app up: its own listeners run, and every error reaches the collector', async () => {
    collector = await createCollector();
    const result = await runScript(ensureBuilt(), percentScript(collector.url, tempDir()));
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(EXPECTED_SEEN);
    const values = collector.events.map((event) => entriesOf(event)[0]!.value).sort();
    expect(values).toEqual(EXPECTED_VALUES);
    // The frame in 50%off.cjs keeps its name as written.
    const discount = collector.events.find((event) => entriesOf(event)[0]!.value === 'captured by the app')!;
    expect(entriesOf(discount)[0]!.stacktrace!.frames.at(-1)).toMatchObject({ function: 'applyDiscount', module: '50%off' });
  });

  it('posthog-node on the same script: its listeners run and it delivers the same errors', async () => {
    collector = await createCollector();
    const result = await runScript('posthog-node', percentScript(collector.url, tempDir()));
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(EXPECTED_SEEN);
    expect(collector.events.map((event) => entriesOf(event)[0]!.value).sort()).toEqual(EXPECTED_VALUES);
  });
});

describe('frames come from the stack after the message', () => {
  it('a message with stack-shaped lines never makes the client read the file it names', async () => {
    collector = await createCollector();
    const dir = tempDir();
    const config = join(dir, 'production.js');
    // Joined at run time: the source lines of this test file (sent as context) must not hold it.
    const password = ['S3cret', 'Hunter2'].join('-');
    writeFileSync(config, `module.exports = {\n  database: 'postgres://app:${password}@db/prod',\n};\n`);
    const client = new PostHog('phc_test_key', { host: collector.url, flushAt: 1000, flushOnExitTimeout: 0 });
    const input = `\n    at x (${config}:2:5)`;
    function loadUser(): never {
      throw new Error('bad name: ' + input);
    }
    try {
      loadUser();
    } catch (error) {
      client.captureException(error, 'user-1');
    }
    await client.shutdown(5000);
    const [event] = collector.events;
    const text = JSON.stringify(event);
    expect(text).not.toContain(password);
    const frames = entriesOf(event!)[0]!.stacktrace!.frames;
    expect(frames.some((frame) => String(frame.filename).includes('production.js'))).toBe(false);
    // The real frames are all there, the throwing one last with its own source line.
    expect(frames.at(-1)).toMatchObject({ function: 'loadUser', in_app: true });
    expect(frames.at(-1)!.context_line).toContain("throw new Error('bad name: ' + input)");
  });
});

describe('rate limiting with made-up error types (child process)', () => {
  it('an app throwing 2,000 distinct error names 4 times each still sends a bounded number', async () => {
    collector = await createCollector();
    const result = await runScript(
      ensureBuilt(),
      `
      const posthog = new PostHog('phc_k', { host: ${JSON.stringify(collector.url)}, enableExceptionAutocapture: true, flushInterval: 60000, flushAt: 1000, maxQueueSize: 100000 });
      posthog.on('error', () => {});
      let seen = 0;
      process.on('uncaughtException', () => seen++);
      class DynamicError extends Error {}
      for (let round = 0; round < 4; round++) {
        for (let i = 0; i < 2000; i++) setTimeout(() => { throw Object.assign(new DynamicError('x'), { name: 'Dynamic' + i }); }, 1);
      }
      setTimeout(async () => {
        await posthog.shutdown();
        console.log(JSON.stringify({ seen, dropped: posthog.stats().dropped }));
      }, 1000);
    `,
    );
    expect(result.code).toBe(0);
    // 1,000 types tracked on their own (4 each pass), the other 1,000 share one bucket of 10.
    expect(JSON.parse(result.stdout)).toEqual({ seen: 8_000, dropped: { rate_limited: 3_990 } });
    expect(collector.events).toHaveLength(4_010);
  });
});
