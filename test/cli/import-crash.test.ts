// Crash and Ctrl-C safety (issue 7), with the importer as a real child process: killed with SIGKILL
// in the middle of an import, then run with --resume, every valid row arrives exactly once by uuid
// (by uuid), in file
// order, and the rejects file lists every bad row once. Duplicates can only be rows the checkpoint
// had not yet recorded as acknowledged, re-sent with the same uuid and content.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dirname } from 'node:path';
import { rmSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createCollector, type Collector, type ReceivedEvent } from '../../src/devserver';
import { tempDir } from '../support/command-io';
import { createFaultCollector } from '../support/fault-collector';
import { buildCommandScript } from '../support/import-cli';

let script: string;
beforeAll(async () => {
  script = await buildCommandScript();
});
afterAll(() => rmSync(dirname(script), { recursive: true, force: true }));

let collector: Collector | undefined;
afterEach(async () => {
  await collector?.close();
  collector = undefined;
});

const ROWS = 20_000;

/** Rows with `i` in properties; every 997th line is bad. Returns the good i's and the bad lines. */
function writeFixture(dir: string): { good: number[]; badLines: number[] } {
  const lines: string[] = [];
  const good: number[] = [];
  const badLines: number[] = [];
  for (let i = 0; i < ROWS; i++) {
    if (i % 997 === 500) {
      lines.push(JSON.stringify({ event: 'bought', distinct_id: '', timestamp: '2024-01-01T00:00:00Z', properties: { i } }));
      badLines.push(i + 1);
      continue;
    }
    lines.push(
      JSON.stringify({
        event: 'bought',
        distinct_id: `u${i % 50}`,
        timestamp: new Date(Date.UTC(2024, 0, 1) + i * 1000).toISOString(),
        properties: { i, padding: 'x'.repeat(100) },
      }),
    );
    good.push(i);
  }
  writeFileSync(join(dir, 'events.ndjson'), lines.join('\n') + '\n');
  return { good, badLines };
}

function startImport(
  dir: string,
  url: string,
  extra: string[] = [],
  chunkRows: string[] = ['--checkpoint-rows', '200'],
): { child: ChildProcess; done: Promise<{ code: number | null; signal: string | null; stderr: string }> } {
  const args = [
    script,
    'import',
    'events.ndjson',
    '--api-key',
    'phc_test',
    '--host',
    url,
    '--batch-size',
    '100',
    ...chunkRows,
    '--rejects',
    'bad.ndjson',
    ...extra,
  ];
  const child = spawn(process.execPath, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<{ code: number | null; signal: string | null; stderr: string }>((resolve) => {
    child.on('exit', (code, signal) => resolve({ code, signal, stderr }));
  });
  return { child, done };
}

/** Checks the delivery guarantees over everything the collector received, in arrival order. */
function expectEachRowOnceInOrder(events: readonly ReceivedEvent[], good: number[]): number {
  const byUuid = new Map<string, ReceivedEvent>();
  const firstArrivals: number[] = [];
  let duplicates = 0;
  for (const event of events) {
    const earlier = byUuid.get(event.uuid!);
    if (earlier) {
      duplicates++;
      expect(event.properties.i).toBe(earlier.properties.i);
      expect(event.timestamp).toBe(earlier.timestamp);
      continue;
    }
    byUuid.set(event.uuid!, event);
    firstArrivals.push(event.properties.i as number);
  }
  expect(firstArrivals).toEqual(good);
  expect(events.every((e) => e.historical_migration)).toBe(true);
  return duplicates;
}

function rejectedLines(dir: string): number[] {
  return readFileSync(join(dir, 'bad.ndjson'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { line: number }).line);
}

it('SIGKILL mid-import, then --resume: every valid row arrives once by uuid, in file order', async () => {
  const dir = tempDir();
  const { good, badLines } = writeFixture(dir);
  let run: ReturnType<typeof startImport> | undefined;
  let requests = 0;
  // Killed while the collector holds a request it has recorded but not yet answered: that chunk is
  // in flight from the importer's point of view and must come again with the same uuids. Not before
  // the checkpoint has recorded some rows, so the resume has something to skip.
  collector = await createCollector({
    onEvents: () => {
      if (++requests >= 7 && checkpointedRows(dir) > 0) run?.child.kill('SIGKILL');
    },
  });
  run = startImport(dir, collector.url);
  const first = await run.done;
  expect(first.signal, first.stderr).toBe('SIGKILL');
  const beforeResume = collector.events.length;
  expect(beforeResume).toBeGreaterThan(0);
  expect(beforeResume).toBeLessThan(good.length);
  const checkpoint = JSON.parse(readFileSync(join(dir, readCheckpointName(first.stderr, dir)), 'utf8'));
  expect(checkpoint.sources[0].complete).toBe(false);

  const second = await startImport(dir, collector.url, ['--resume']).done;
  expect(second.code, second.stderr).toBe(0);
  // It really resumed: it skipped exactly the rows the checkpoint held, not zero (a restart).
  const skipped = Number(/([\d,]+) skipped as already sent/.exec(second.stderr)?.[1]?.replace(/,/g, ''));
  expect(checkpoint.sources[0].rows).toBeGreaterThan(0);
  expect(skipped).toBe(checkpoint.sources[0].rows);

  const duplicates = expectEachRowOnceInOrder(collector.events, good);
  // Only what was unacknowledged at the kill comes twice: at most the open chunks (5 x 200 rows).
  expect(duplicates).toBeLessThanOrEqual(1_000);
  expect(rejectedLines(dir)).toEqual(badLines);
});

it('Ctrl-C (SIGINT) stops cleanly with exit 130; --resume sends the rest with no duplicates', async () => {
  const dir = tempDir();
  const { good, badLines } = writeFixture(dir);
  let run: ReturnType<typeof startImport> | undefined;
  let requests = 0;
  collector = await createCollector({
    onEvents: () => {
      if (++requests === 5) run?.child.kill('SIGINT');
    },
  });
  run = startImport(dir, collector.url);
  const first = await run.done;
  expect(first.code, first.stderr).toBe(130);
  expect(first.stderr).toMatch(/--resume/);
  const sentFirst = collector.events.length;
  expect(sentFirst).toBeLessThan(good.length);

  const second = await startImport(dir, collector.url, ['--resume']).done;
  expect(second.code, second.stderr).toBe(0);
  expect(expectEachRowOnceInOrder(collector.events, good)).toBe(0);
  expect(rejectedLines(dir)).toEqual(badLines);
});

it('SIGKILL while a request is in flight: the checkpoint had followed every acknowledged request, so --resume re-sends only that one', async () => {
  const dir = tempDir();
  const { good, badLines } = writeFixture(dir);
  let run: ReturnType<typeof startImport> | undefined;
  let killed = false;
  const fault = await createFaultCollector({
    plan: (index) => {
      if (index !== 6 || killed) return undefined;
      // Request 6 is never answered. Once the checkpoint records everything the collector has
      // acknowledged (or after a generous wait, which then fails the test), the importer is killed.
      void (async () => {
        for (let waited = 0; waited < 10_000 && checkpointedEvents(dir) < fault.events.length; waited += 20) await sleep(20);
        killed = true;
        run?.child.kill('SIGKILL');
      })();
      return { kind: 'hang' };
    },
  });
  collector = fault;
  run = startImport(dir, fault.url, [], []);
  const first = await run.done;
  expect(first.signal, first.stderr).toBe('SIGKILL');
  expect(fault.events.length).toBe(600);
  expect(checkpointedEvents(dir)).toBe(600);

  const second = await startImport(dir, fault.url, ['--resume'], []).done;
  expect(second.code, second.stderr).toBe(0);
  // Only the request in flight came again, and it had not been recorded: no row arrived twice.
  expect(expectEachRowOnceInOrder(fault.events, good)).toBe(0);
  expect(rejectedLines(dir)).toEqual(badLines);
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function readCheckpointIn(dir: string): { sent: number; sources: Array<{ rows: number }> } | undefined {
  const name = readdirSync(dir).find((file) => file.endsWith('.checkpoint.json'));
  if (name === undefined) return undefined;
  try {
    return JSON.parse(readFileSync(join(dir, name), 'utf8'));
  } catch {
    return undefined;
  }
}

/** Rows the checkpoint in `dir` counts as acknowledged; 0 before there is one. */
function checkpointedRows(dir: string): number {
  return readCheckpointIn(dir)?.sources[0]!.rows ?? 0;
}

/** Events the checkpoint in `dir` counts as acknowledged. */
function checkpointedEvents(dir: string): number {
  return readCheckpointIn(dir)?.sent ?? 0;
}

function readCheckpointName(_output: string, dir: string): string {
  const names = readdirSync(dir).filter((name) => name.endsWith('.checkpoint.json'));
  expect(names).toHaveLength(1);
  return names[0]!;
}
