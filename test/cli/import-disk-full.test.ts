// `hogtail import` on a full disk (issue 16): a small tmpfs holds the rejects file or the checkpoint
// (tests run as root). The error names the file, no temp file is left behind, and the advice
// printed ("free some space, then --resume") really finishes the import.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { runImportCommand } from '../../src/cli/import-command';
import { createCollector, type Collector } from '../../src/devserver';
import { runCommand, tempDir } from '../support/command-io';

let collector: Collector;
let dir: string;
let disk: string;
beforeEach(async () => {
  collector = await createCollector();
  dir = tempDir();
  disk = join(dir, 'disk');
  mkdirSync(disk);
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', disk]);
});
afterEach(async () => {
  execFileSync('umount', [disk]);
  await collector.close();
});

const at = (i: number) => new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString();
const args = (checkpointDir: string, ...extra: string[]) => [
  'events.ndjson',
  '--api-key',
  'phc_test',
  '--host',
  collector.url,
  '--batch-size',
  '50',
  '--checkpoint',
  join(checkpointDir, 'cp.json'),
  '--rejects',
  join(disk, 'bad.ndjson'),
  ...extra,
];

it('the rejects file fills the disk part way: the error names it, no .tmp is left, and after freeing space --resume finishes', async () => {
  // Every other row is refused and copied to the rejects file with 1 KB of text: about 500 KB of
  // rejects, twice what the disk holds.
  const lines = Array.from({ length: 1_000 }, (_, i) =>
    i % 2 === 0
      ? JSON.stringify({ event: 'e', distinct_id: 'u', timestamp: at(i), properties: { i } })
      : JSON.stringify({ event: '', distinct_id: 'u', timestamp: at(i), properties: { i, note: 'x'.repeat(1_000) } }),
  );
  writeFileSync(join(dir, 'events.ndjson'), lines.join('\n') + '\n');

  // Only the rejects file is on the small disk here, so it is what fills it.
  const full = await runCommand(runImportCommand, args(dir), { cwd: dir });
  expect(full.code).toBe(1);
  expect(full.stderr).toContain(`cannot write the rejects file ${join(disk, 'bad.ndjson')}: no space left on device (ENOSPC)`);
  expect(full.stderr).toMatch(/Free some space .*, then run the same command with --resume/);
  expect(readdirSync(disk).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  expect(full.stdout).toMatch(/import stopped/);

  execFileSync('mount', ['-o', 'remount,size=4m', disk]);
  const resumed = await runCommand(runImportCommand, args(dir, '--resume'), { cwd: dir });
  expect(resumed.code, resumed.stderr).toBe(0);
  // Rows sent but not yet recorded when the disk filled may come twice, always under the same uuid.
  const firstArrival = new Map<string, unknown>();
  for (const event of collector.events) if (!firstArrival.has(event.uuid!)) firstArrival.set(event.uuid!, event.properties.i);
  expect([...firstArrival.values()]).toEqual(Array.from({ length: 500 }, (_, k) => k * 2));
  const rejected = readFileSync(join(disk, 'bad.ndjson'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { line: number }).line);
  expect(rejected).toEqual(Array.from({ length: 500 }, (_, k) => k * 2 + 2));
});

it('a checkpoint that cannot be written names its path, leaves no .tmp, and nothing is sent', async () => {
  writeFileSync(join(dir, 'events.ndjson'), JSON.stringify({ event: 'e', distinct_id: 'u', timestamp: at(0) }) + '\n');
  // Fill the disk to the last byte.
  writeFileSync(join(disk, 'filler'), Buffer.alloc(256 * 1024));
  const result = await runCommand(runImportCommand, args(disk), { cwd: dir });
  expect(result.code).toBe(1);
  expect(result.stderr).toContain(`cannot write the checkpoint ${join(disk, 'cp.json')}: no space left on device (ENOSPC)`);
  expect(readdirSync(disk).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  expect(collector.requests).toBe(0);
});
