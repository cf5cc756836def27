// scripts/check-cycles.js on small trees: a cycle through a type-only import, `export … from`, or
// an `import('…')` type fails the check; the same files without the back edge pass.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { repoRoot } from '../support/built';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function check(files: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'hogtail-cycles-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, 'src', name, '..'), { recursive: true });
    writeFileSync(join(dir, 'src', name), text);
  }
  return spawnSync(process.execPath, [join(repoRoot, 'scripts/check-cycles.js'), 'src'], { cwd: dir, encoding: 'utf8' });
}

const A = `import { b } from './b.js';\nexport const a = () => b;\n`;

it.each([
  ['a type-only import', `import type { A } from './a';\nexport const b = 1;\nexport type B = A;\n`],
  ['an export … from', `export { a } from './a';\nexport const b = 1;\n`],
  ['an import() type', `export const b = 1;\nexport type B = import('./a').A;\n`],
  ['a folder index', `import { c } from './c';\nexport const b = c;\n`],
])('fails on a cycle closed by %s', (_, b) => {
  const result = check({ 'a.ts': A, 'b.ts': b, 'c/index.ts': `import { a } from '../a';\nexport const c = a;\n` });
  expect(result.status).toBe(1);
  expect(result.stderr).toContain('import cycle among src/a.ts, src/b.ts');
});

it('passes when nothing imports back', () => {
  const result = check({
    'a.ts': A,
    'b.ts': `import type { Other } from './c/other';\nexport const b: Other = 1;\n`,
    'c/other.ts': 'export type Other = number;\n',
  });
  expect(result.stderr).toBe('');
  expect(result.stdout).toContain('3 files, 0 cycle(s)');
  expect(result.status).toBe(0);
});
