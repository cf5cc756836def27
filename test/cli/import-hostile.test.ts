// `hogtail import` against hostile or damaged input (issue 16): every such row is rejected with its
// line and reason, in a dry run too, and the import goes on; nothing dies with a stack overflow.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
  readFileSync(path, 'utf8').trim().split('\n').map((line) => JSON.parse(line));

it('a row nested 20,000 levels deep is rejected with its line and reason; the rows around it arrive', async () => {
  const deep = '['.repeat(20_000) + ']'.repeat(20_000);
  const lines = [row(0), row(1), `{"event":"e","distinct_id":"u","timestamp":"${at(2)}","properties":{"deep":${deep}}}`, row(3)];
  writeFileSync(join(dir, 'events.ndjson'), lines.join('\n') + '\n');

  const dry = await runCommand(runImportCommand, ['events.ndjson', '--dry-run'], { cwd: dir });
  expect(dry.code, dry.stderr).toBe(0);
  expect(dry.stdout).toMatch(/3 rows valid, 1 rejected/);
  expect(dry.stdout).toMatch(/events\.ndjson:3: nested more than 100 levels deep/);

  const result = await runCommand(runImportCommand, ['events.ndjson', ...connection(), '--rejects', 'bad.ndjson', '--checkpoint', 'cp.json'], { cwd: dir });
  expect(result.code, result.stderr).toBe(0);
  expect(collector.events.map((e) => e.properties.i)).toEqual([0, 1, 3]);
  expect(rejectsOf(join(dir, 'bad.ndjson'))).toEqual([expect.objectContaining({ line: 3, reason: expect.stringMatching(/nested more than 100 levels deep/) })]);
  const checkpoint = JSON.parse(readFileSync(join(dir, 'cp.json'), 'utf8'));
  expect(checkpoint.sources[0]).toMatchObject({ rows: 4, complete: true });
});
