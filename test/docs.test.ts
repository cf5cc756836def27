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

const sources = [
  ...['src', 'test', 'scripts', 'bench', 'examples', 'docs'].flatMap((dir) => files(join(repoRoot, dir))),
  join(repoRoot, 'README.md'),
];
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
  const named = new Set(
    sources.flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/\bdocs\/([\w-]+\.md)/g)].map((match) => match[1]!)),
  );
  expect(named.size).toBeGreaterThan(5);
  expect([...named].filter((name) => !existsSync(join(repoRoot, 'docs', name)))).toEqual([]);
});

/** The Markdown a reader of the repository or the package follows links through. */
const pages = () => [
  ...['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md'].map((file) => join(repoRoot, file)),
  ...readdirSync(join(repoRoot, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(repoRoot, 'docs', name)),
];

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const text = markdown.replace(/```[\s\S]*?```/g, '');
  for (const [, heading] of text.matchAll(/^#{1,6} +(.+?) *#* *$/gm)) {
    const slug = heading!
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

it('every link between the README, the other top-level pages and docs/ resolves, anchors included', () => {
  const broken: string[] = [];
  for (const page of pages()) {
    const markdown = readFileSync(page, 'utf8');
    const prose = markdown.replace(/```[\s\S]*?```/g, '');
    for (const [, target] of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^(https?:|mailto:)/.test(target!)) continue;
      const [path, anchor] = target!.split('#') as [string, string | undefined];
      const file = path === '' ? page : join(page, '..', path);
      const at = `${page.slice(repoRoot.length)} → ${target}`;
      if (!existsSync(file)) broken.push(`${at}: no such file`);
      else if (anchor && file.endsWith('.md') && !anchorsOf(readFileSync(file, 'utf8')).has(anchor)) broken.push(`${at}: no such heading`);
    }
  }
  expect(broken).toEqual([]);
});

it('the README stays short, opens with the two commands, and links every guide in docs/', () => {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  expect(readme.split('\n').length).toBeLessThanOrEqual(300);
  expect(readme.slice(0, 400)).toMatch(/```sh\nnpm install && npm start .*\nnpm test .*\n```/);
  const guides = [
    'browser',
    'react',
    'node',
    'edge',
    'feature-flags',
    'options',
    'cli',
    'dev-collector',
    'management-api',
    'migration',
    'guarantees',
  ];
  expect(guides.filter((guide) => !readme.includes(`(docs/${guide}.md)`))).toEqual([]);
});
