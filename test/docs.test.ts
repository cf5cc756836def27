// Code, README and the docs point at design notes inside the repository (docs/), never at files a
// user of the package does not have; and every docs/ file they name exists.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { repoRoot } from './support/built';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    return statSync(path).isDirectory() ? files(path) : /\.(ts|tsx|js|mjs|md|html)$/.test(name) ? [path] : [];
  });
}

const sources = [...['src', 'test', 'scripts', 'bench', 'examples', 'docs'].flatMap((dir) => files(join(repoRoot, dir))), join(repoRoot, 'README.md')];
const OUTSIDE = /DESIGN\.md|DESIGN §|spec §|spec\/(ingestion|management)-api|(ingestion|management)-api\.md|\.\.\/shared\/(DESIGN|spec)/;

it('no source, test, docs or README line points at design documents outside the repository', () => {
  const offenders = sources.flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .map((line, index) => ({ line, at: `${file.slice(repoRoot.length)}:${index + 1}` }))
      // A link between docs (`[management-api.md](management-api.md)`) names a note in the repository.
      .filter(({ line }) => OUTSIDE.test(line.replace(/\[([\w-]+\.md)\]\(\1\)/g, '')) && !line.includes('docs/'))
      .map(({ at }) => at),
  );
  expect(offenders.filter((at) => !at.startsWith('test/docs.test.ts'))).toEqual([]);
});

it('every docs/ file named in code or README exists', () => {
  const named = new Set(sources.flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/\bdocs\/([\w-]+\.md)/g)].map((match) => match[1]!)));
  expect(named.size).toBeGreaterThan(5);
  expect([...named].filter((name) => !existsSync(join(repoRoot, 'docs', name)))).toEqual([]);
});
