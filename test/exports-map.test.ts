// package.json `exports`: every condition carries its own `types`, first, beside a `default`; no
// `types` sits ahead of platform conditions (a shared one there makes a bundler read the server's
// declarations for page code). ESM and CommonJS declarations are never mixed up.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { repoRoot } from './support/built';

type Target = string | { [condition: string]: Target };
const manifest = JSON.parse(readFileSync(repoRoot + 'package.json', 'utf8')) as { exports: Record<string, Target> };

/** Every object in the map that holds a `default`, with the path of conditions leading to it. */
function leaves(target: Target, path: string[]): { path: string[]; conditions: Record<string, Target> }[] {
  if (typeof target === 'string') return [];
  if ('default' in target) return [{ path, conditions: target }];
  return Object.entries(target).flatMap(([condition, inner]) => leaves(inner, [...path, condition]));
}

const entries = Object.entries(manifest.exports).filter(([subpath]) => subpath !== './package.json');

it.each(entries)('%s: every condition leads to its own types, listed first', (subpath, target) => {
  expect(typeof target, `${subpath} maps straight to a file, with no types`).toBe('object');
  const found = leaves(target, []);
  expect(found.length).toBeGreaterThan(0);
  for (const { path, conditions } of found) {
    expect(Object.keys(conditions), path.join(' > ')).toEqual(['types', 'default']);
    const [types, code] = [String(conditions.types), String(conditions.default)];
    // A .cjs file is described by a .d.cts, anything else by a .d.ts.
    expect(types.endsWith(code.endsWith('.cjs') ? '.d.cts' : '.d.ts'), `${path.join(' > ')}: ${types} for ${code}`).toBe(true);
  }
});

it.each(entries)('%s: no shared types ahead of the platform conditions', (_, target) => {
  const shared = (node: Target): boolean =>
    typeof node === 'object' && !('default' in node) && ('types' in node || Object.values(node).some(shared));
  expect(shared(target)).toBe(false);
});
