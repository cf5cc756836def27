// docs/options.md is generated from the option types' doc comments (scripts/options-reference.js):
// regenerated here, it must equal the committed file, so a changed option, type, default or
// description fails until the reference is regenerated with it.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { repoRoot } from '../support/built';

it('docs/options.md is what the option types say today (run node scripts/options-reference.js)', () => {
  const check = spawnSync(process.execPath, [join(repoRoot, 'scripts/options-reference.js'), '--check'], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  expect(check.stderr).toBe('');
  expect(check.status).toBe(0);
  // Every client's options are there, with a default column that reads the @default tags.
  const reference = readFileSync(join(repoRoot, 'docs/options.md'), 'utf8');
  expect(reference).toMatch(/\| `api_host` \| `string` \| `'https:\/\/us\.i\.posthog\.com'` \|/);
  expect(reference).toMatch(/\| `flushAt` \| `number` \| `20` \|/);
  expect(reference).toMatch(/\| `flushOnExitTimeout` \| `number` \| `5000` \| Node only\./);
  expect(reference).toMatch(/\| `path` \| `string` \| required \|/);
}, 120_000);
