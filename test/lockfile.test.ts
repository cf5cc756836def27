// `npm install` on a fresh clone must leave package-lock.json as committed. npm rewrites the lock's
// root entry from package.json, so a field added to one and not the other (peerDependencies was)
// shows up as a modified lock on every new machine. Checked field by field, without a network.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { repoRoot } from './support/built';

/** The package.json fields npm mirrors into the lock's root entry (`packages[""]`). */
const MIRRORED = [
  'name',
  'version',
  'license',
  'bin',
  'dependencies',
  'devDependencies',
  'optionalDependencies',
  'peerDependencies',
  'peerDependenciesMeta',
  'engines',
  'os',
  'cpu',
  'funding',
];

const read = (file: string) => JSON.parse(readFileSync(join(repoRoot, file), 'utf8')) as Record<string, unknown>;
/** npm writes bin paths without the leading ./ */
const normalised = (field: string, value: unknown) =>
  field === 'bin' && value && typeof value === 'object'
    ? Object.fromEntries(Object.entries(value).map(([name, path]) => [name, String(path).replace(/^\.\//, '')]))
    : value;

it("the lock's root entry mirrors package.json, so npm install has nothing to rewrite", () => {
  const manifest = read('package.json');
  const lock = read('package-lock.json') as { name: string; version: string; packages: Record<string, Record<string, unknown>> };
  const root = lock.packages['']!;
  expect({ name: lock.name, version: lock.version }).toEqual({ name: manifest.name, version: manifest.version });
  for (const field of MIRRORED) {
    expect({ field, value: root[field] }).toEqual({ field, value: normalised(field, manifest[field]) });
  }
});
