// --resume must never turn into "send it again under new uuids": a changed, appended, moved or
// missing input is refused with exit 2 and nothing more reaches the collector (migrated events
// cannot be deleted, so a duplicate is forever).
import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runImportCommand } from '../../src/cli/import-command';
import { runCommand, tempDir } from '../support/command-io';
import { createFaultCollector, type FaultCollector } from '../support/fault-collector';

let collector: FaultCollector;
let dir: string;
/** Requests from this index on get 503: with --retries 1 the import stops part way, exit 1. */
let failFrom = Infinity;
beforeEach(async () => {
  failFrom = Infinity;
  collector = await createFaultCollector({ plan: (index) => (index >= failFrom ? { kind: 'status', status: 503 } : undefined) });
  dir = tempDir();
});
afterEach(async () => {
  await collector.close();
});

const at = (i: number) => new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString();
const row = (i: number, note = 'original') =>
  JSON.stringify({ event: 'e', distinct_id: `u${i % 3}`, timestamp: at(i), properties: { i, note } });
const rows = (from: number, to: number, note?: string) => Array.from({ length: to - from }, (_, k) => row(from + k, note) + '\n').join('');
const args = (...extra: string[]) => [
  'events.ndjson',
  '--api-key',
  'phc_test',
  '--host',
  collector.url,
  '--batch-size',
  '5',
  '--checkpoint-rows',
  '5',
  '--retries',
  '1',
  ...extra,
];

/** Imports 30 rows, but the server gives out after two requests: 10 rows acknowledged, exit 1. */
async function interruptedImport(extra: string[] = []): Promise<void> {
  writeFileSync(join(dir, 'events.ndjson'), rows(0, 30));
  failFrom = 2;
  const first = await runCommand(runImportCommand, args(...extra), { cwd: dir });
  expect(first.code, first.stderr).toBe(1);
  expect(collector.events.map((e) => e.properties.i)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  failFrom = Infinity;
}

/** Runs the command and checks it was refused before anything reached the collector. */
async function expectRefused(extra: string[], message: RegExp): Promise<string> {
  const eventsBefore = collector.events.length;
  const requestsBefore = collector.requests;
  const result = await runCommand(runImportCommand, args(...extra), { cwd: dir });
  expect(result.code, result.stdout + result.stderr).toBe(2);
  expect(result.stderr).toMatch(message);
  expect(collector.events).toHaveLength(eventsBefore);
  expect(collector.requests).toBe(requestsBefore);
  return result.stderr;
}

describe('hogtail import --resume on changed input', () => {
  it('refuses a file edited after an interrupted run (same size, content differs)', async () => {
    await interruptedImport();
    const edited = readFileSync(join(dir, 'events.ndjson'), 'utf8').replace('original', 'ORIGINAL');
    writeFileSync(join(dir, 'events.ndjson'), edited);
    const stderr = await expectRefused(
      ['--resume'],
      /events\.ndjson changed since the checkpoint was written \(content differs\); resuming would re-send rows under different uuids/,
    );
    expect(stderr).toMatch(
      /Restore the original file, or delete the checkpoint .*hogtail-import-.*\.checkpoint\.json.* to import it as new data/,
    );
    // Deleting the checkpoint is not a way round it without a cost, and the message says which.
    expect(stderr).toMatch(
      /every row is then sent again under new uuids, so the 10 rows already sent would arrive twice\. To send only the rows not sent yet, put them in a new file and import that\./,
    );
    // Without --resume too: the same path still maps to its checkpoint.
    await expectRefused([], /content differs/);
  });

  it('refuses a partly imported file that was appended to', async () => {
    await interruptedImport();
    const size = readFileSync(join(dir, 'events.ndjson')).length;
    appendFileSync(join(dir, 'events.ndjson'), rows(30, 32));
    const grown = readFileSync(join(dir, 'events.ndjson')).length;
    await expectRefused(['--resume'], new RegExp(`size ${size} → ${grown} bytes`));
  });

  it('refuses a completely imported file that was appended to, with or without --resume', async () => {
    writeFileSync(join(dir, 'events.ndjson'), rows(0, 12));
    expect((await runCommand(runImportCommand, args(), { cwd: dir })).code).toBe(0);
    expect(collector.events).toHaveLength(12);
    appendFileSync(join(dir, 'events.ndjson'), rows(12, 14));
    await expectRefused(['--resume'], /changed since the checkpoint was written \(size/);
    await expectRefused([], /changed since the checkpoint was written \(size/);
  });

  it('under --source-id, which ignores path and content, checks the acknowledged rows themselves', async () => {
    await interruptedImport(['--source-id', 'export-1']);
    // A row inserted at the top keeps every later row's content but shifts its number: resuming
    // would skip an unsent row and send row 9 again as row 10, under another uuid.
    writeFileSync(join(dir, 'events.ndjson'), row(99) + '\n' + rows(0, 29));
    await expectRefused(['--resume', '--source-id', 'export-1'], /its first 10 rows differ from the ones acknowledged/);
  });

  it('under --source-id, refuses an input that is now shorter than what was acknowledged', async () => {
    await interruptedImport(['--source-id', 'export-1']);
    writeFileSync(join(dir, 'events.ndjson'), rows(0, 4));
    await expectRefused(['--resume', '--source-id', 'export-1'], /size .* → .* bytes/);
    // stdin has no size to compare: counting the rows catches it.
    const viaStdin = await runCommand(
      runImportCommand,
      ['-', '--api-key', 'phc_test', '--host', collector.url, '--resume', '--source-id', 'export-1', '--checkpoint', checkpointName()],
      { cwd: dir, stdin: rows(0, 4) },
    );
    expect(viaStdin.code).toBe(2);
    expect(viaStdin.stderr).toMatch(
      /stdin changed since the checkpoint was written \(it now ends after 4 rows; the checkpoint had acknowledged 10\)/,
    );
    expect(viaStdin.stderr).toMatch(/Restore the original input/);
    expect(collector.events).toHaveLength(10);
  });

  it('resumes an unchanged input and sends only the rest', async () => {
    await interruptedImport(['--source-id', 'export-1']);
    const resumed = await runCommand(runImportCommand, args('--resume', '--source-id', 'export-1'), { cwd: dir });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(/20 sent, 0 rejected, 10 skipped as already sent/);
    expect(collector.events.map((e) => e.properties.i)).toEqual(Array.from({ length: 30 }, (_, i) => i));
  });

  it('--resume without a checkpoint for this input stops and lists the checkpoints it sees', async () => {
    await interruptedImport();
    writeFileSync(join(dir, 'moved.ndjson'), readFileSync(join(dir, 'events.ndjson')));
    const eventsBefore = collector.events.length;
    const result = await runCommand(runImportCommand, ['moved.ndjson', '--api-key', 'phc_test', '--host', collector.url, '--resume'], {
      cwd: dir,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--resume: there is no checkpoint .* for this input, so nothing was sent/);
    expect(result.stderr).toContain(
      `Checkpoints in ${dir}:\n  ${checkpointName()}: ${join(dir, 'events.ndjson')} (10 rows); 10 sent, updated `,
    );
    expect(result.stderr).toMatch(/--checkpoint FILE/);
    // Naming that checkpoint does not help: the rows' uuids depend on the path, so it is refused.
    const named = await runCommand(
      runImportCommand,
      ['moved.ndjson', '--api-key', 'phc_test', '--host', collector.url, '--resume', '--checkpoint', checkpointName()],
      { cwd: dir },
    );
    expect(named.code).toBe(2);
    expect(named.stderr).toContain(
      `moved.ndjson changed since the checkpoint was written (the checkpoint was written for ${join(dir, 'events.ndjson')})`,
    );
    expect(collector.events).toHaveLength(eventsBefore);
  });

  it('a dry run ignores --resume and says nothing about checkpoints', async () => {
    writeFileSync(join(dir, 'events.ndjson'), rows(0, 3));
    const result = await runCommand(runImportCommand, ['events.ndjson', '--dry-run', '--resume'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/dry run: 3 rows valid/);
    expect(result.stderr).not.toMatch(/checkpoint/);
  });
});

function checkpointName(): string {
  const names = readdirSync(dir).filter((name) => name.endsWith('.checkpoint.json'));
  expect(names).toHaveLength(1);
  return names[0]!;
}
