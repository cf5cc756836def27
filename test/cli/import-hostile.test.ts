// `hogtail import` against hostile or damaged input (issue 16): every such row is rejected with its
// line and reason, in a dry run too, and the import goes on; nothing dies with a stack overflow.
import { closeSync, openSync, readFileSync, rmSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { runImportCommand } from '../../src/cli/import-command';
import { createCollector, type Collector } from '../../src/devserver';
import { runCommand, tempDir } from '../support/command-io';

let collector: Collector;
let dir: string;
beforeEach(async () => {
  collector = await createCollector();
  dir = tempDir();
});
afterEach(async () => {
  await collector.close();
});

const at = (i: number) => new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString();
const row = (i: number) => JSON.stringify({ event: 'e', distinct_id: 'u', timestamp: at(i), properties: { i } });
const connection = () => ['--api-key', 'phc_test', '--host', collector.url];
const rejectsOf = (path: string): Array<{ line: number; reason: string }> =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));

it('a row nested 20,000 levels deep is rejected with its line and reason; the rows around it arrive', async () => {
  const deep = '['.repeat(20_000) + ']'.repeat(20_000);
  const lines = [row(0), row(1), `{"event":"e","distinct_id":"u","timestamp":"${at(2)}","properties":{"deep":${deep}}}`, row(3)];
  writeFileSync(join(dir, 'events.ndjson'), lines.join('\n') + '\n');

  const dry = await runCommand(runImportCommand, ['events.ndjson', '--dry-run'], { cwd: dir });
  expect(dry.code, dry.stderr).toBe(0);
  expect(dry.stdout).toMatch(/3 rows valid, 1 rejected/);
  expect(dry.stdout).toMatch(/events\.ndjson:3: nested more than 100 levels deep/);

  const result = await runCommand(
    runImportCommand,
    ['events.ndjson', ...connection(), '--rejects', 'bad.ndjson', '--checkpoint', 'cp.json'],
    { cwd: dir },
  );
  expect(result.code, result.stderr).toBe(0);
  expect(collector.events.map((e) => e.properties.i)).toEqual([0, 1, 3]);
  expect(rejectsOf(join(dir, 'bad.ndjson'))).toEqual([
    expect.objectContaining({ line: 3, reason: expect.stringMatching(/nested more than 100 levels deep/) }),
  ]);
  const checkpoint = JSON.parse(readFileSync(join(dir, 'cp.json'), 'utf8'));
  expect(checkpoint.sources[0]).toMatchObject({ rows: 4, complete: true });
});

it('a JSON array broken part way: the advice printed (rest into a new file) delivers every row exactly once', async () => {
  const elements = Array.from({ length: 12 }, (_, i) => row(i));
  // Rows 0-7, then an element cut off: the array never closes.
  writeFileSync(join(dir, 'events.json'), '[\n' + elements.slice(0, 8).join(',\n') + ',\n{"event": "e", "distinct_id": ');
  const broken = await runCommand(runImportCommand, ['events.json', ...connection(), '--batch-size', '4'], { cwd: dir });
  expect(broken.code).toBe(1);
  expect(broken.stderr).toMatch(/the JSON array is not closed/);
  expect(broken.stderr).not.toMatch(/with --resume/);
  expect(broken.stderr).toMatch(/Put the rows from that point on into a new file, correct them there, and import that file/);
  expect(collector.events.map((e) => e.properties.i)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);

  writeFileSync(join(dir, 'rest.json'), '[\n' + elements.slice(8).join(',\n') + '\n]\n');
  const rest = await runCommand(runImportCommand, ['rest.json', ...connection()], { cwd: dir });
  expect(rest.code, rest.stderr).toBe(0);
  expect(collector.events.map((e) => e.properties.i)).toEqual(Array.from({ length: 12 }, (_, i) => i));
  expect(new Set(collector.events.map((e) => e.uuid)).size).toBe(12);
});

it('a file broken before anything was sent: the advice is to correct it and start again, which works', async () => {
  writeFileSync(join(dir, 'events.json'), '[\n,\n' + row(0) + ',\n' + row(1) + ',\n' + row(2) + '\n]\n');
  const broken = await runCommand(runImportCommand, ['events.json', ...connection(), '--batch-size', '10', '--checkpoint', 'cp.json'], {
    cwd: dir,
  });
  expect(broken.code).toBe(1);
  expect(broken.stderr).toMatch(/Nothing was sent: correct the file, delete the checkpoint \(.*cp\.json\), and run the same command again/);
  writeFileSync(join(dir, 'events.json'), '[\n' + row(0) + ',\n' + row(1) + ',\n' + row(2) + '\n]\n');
  rmSync(join(dir, 'cp.json'));
  const fixed = await runCommand(runImportCommand, ['events.json', ...connection(), '--batch-size', '10', '--checkpoint', 'cp.json'], {
    cwd: dir,
  });
  expect(fixed.code, fixed.stderr).toBe(0);
  expect(collector.events.map((e) => e.properties.i)).toEqual([0, 1, 2]);
});

it('a file truncated while it is read is not "import complete": exit 1, and --resume after restoring it sends the rest', async () => {
  await collector.close();
  const path = join(dir, 'events.ndjson');
  const original =
    Array.from({ length: 40_000 }, (_, i) =>
      JSON.stringify({ event: 'e', distinct_id: 'u', timestamp: at(i), properties: { i, pad: 'x'.repeat(120) } }),
    ).join('\n') + '\n';
  writeFileSync(path, original);
  let truncated = false;
  collector = await createCollector({
    onEvents: () => {
      if (truncated) return;
      truncated = true;
      truncateSync(path, 3_000_000);
    },
  });
  const cut = await runCommand(runImportCommand, ['events.ndjson', ...connection(), '--batch-size', '500'], { cwd: dir });
  expect(cut.code).toBe(1);
  expect(cut.stdout).not.toMatch(/import complete/);
  expect(cut.stderr).toMatch(
    new RegExp(`events\\.ndjson shrank while it was being read: it had ${original.length} bytes when the import started`),
  );
  expect(cut.stderr).toMatch(/Restore the complete file .*, then run the same command with --resume/);
  expect(collector.events.length).toBeLessThan(40_000);

  writeFileSync(path, original);
  const resumed = await runCommand(runImportCommand, ['events.ndjson', ...connection(), '--batch-size', '500', '--resume'], { cwd: dir });
  expect(resumed.code, resumed.stderr).toBe(0);
  const firstArrival = new Map<string, unknown>();
  for (const event of collector.events) if (!firstArrival.has(event.uuid!)) firstArrival.set(event.uuid!, event.properties.i);
  expect([...firstArrival.values()]).toEqual(Array.from({ length: 40_000 }, (_, i) => i));
});

it('a line longer than any string can be (560 M characters) is rejected with its line and why; the rows after it are read', async () => {
  // A sparse file: one row, then 560 MB of NUL bytes with no newline (no disk used), then one more row.
  const path = join(dir, 'events.ndjson');
  const first = row(0) + '\n';
  const last = '\n' + row(2) + '\n';
  const handle = openSync(path, 'w');
  writeSync(handle, first, 0);
  writeSync(handle, last, Buffer.byteLength(first) + 560 * 1024 * 1024);
  closeSync(handle);

  const result = await runCommand(runImportCommand, ['events.ndjson', '--dry-run'], { cwd: dir });
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout).toMatch(/dry run: 2 rows valid, 1 rejected/);
  expect(result.stdout).toMatch(/events\.ndjson:2: the line is longer than 16 M characters; the server takes events up to about 1 MB/);
}, 60_000);

it('a row with bytes that are not UTF-8 is rejected with its line, in a dry run too; a real U+FFFD and split characters are fine', async () => {
  const text = (s: string) => Buffer.from(s, 'utf8');
  const rowWith = (i: number, name: string) =>
    text(JSON.stringify({ event: 'e', distinct_id: 'u', timestamp: at(i), properties: { i, name } }));
  const latin1 = Buffer.concat([
    text(`{"event":"e","distinct_id":"u","timestamp":"${at(1)}","properties":{"i":1,"name":"Jos`),
    Buffer.from([0xe9]),
    text('"}}'),
  ]);
  const file = Buffer.concat([rowWith(0, 'Zoë 😀 \ufffd'), text('\n'), latin1, text('\n'), rowWith(2, 'Ünïcödé'), text('\n')]);
  writeFileSync(join(dir, 'events.ndjson'), file);

  const dry = await runCommand(runImportCommand, ['events.ndjson', '--dry-run'], { cwd: dir });
  expect(dry.stdout).toMatch(/2 rows valid, 1 rejected/);
  expect(dry.stdout).toMatch(/events\.ndjson:2: has bytes that are not UTF-8/);

  // Read a byte at a time, so every multi-byte character is split between pieces.
  const bytes = Readable.from(
    (function* () {
      for (const byte of file) yield Buffer.from([byte]);
    })(),
  );
  const result = await runCommand(runImportCommand, [...connection(), '--rejects', 'bad.ndjson'], { cwd: dir, stdin: bytes });
  expect(result.code, result.stderr).toBe(0);
  expect(collector.events.map((e) => e.properties.name)).toEqual(['Zoë 😀 \ufffd', 'Ünïcödé']);
  expect(rejectsOf(join(dir, 'bad.ndjson'))).toEqual([expect.objectContaining({ line: 2, reason: expect.stringMatching(/not UTF-8/) })]);
});
