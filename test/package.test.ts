// The package as npm ships it, packed once from a clean copy of the tree and installed into a
// throwaway consumer project: what the tarball holds and whether its CLI starts, types under every
// module resolution, runtime loading from ESM and CommonJS, small apps built with Vite and esbuild,
// and what those bundlers may drop. Catches a build that packing skips, a file left out of `files`,
// a broken `exports` map, declarations that only work in this repository's own tsconfig, a root
// import that breaks server rendering, and a `sideEffects` that drops the script tag or keeps too much.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe } from 'vitest';
import { bundlerTests } from './package/bundlers';
import { publishedTests } from './package/published';
import { runtimeTests } from './package/runtime';
import { sideEffectTests } from './package/side-effects';
import { typeTests } from './package/types';
import { workerTests } from './package/workers';
import { installPacked } from './support/packed';

let consumer = '';
beforeAll(async () => {
  // Packing builds the whole package in the clean copy: minutes on a loaded 2-core machine (under
  // `npm test` its build step has packed already).
  consumer = await installPacked();
}, 600_000);
afterAll(() => rmSync(consumer, { recursive: true, force: true }));

describe('published', () => publishedTests(() => consumer));
describe('types', () => typeTests(() => consumer));
describe('runtime', () => runtimeTests(() => consumer));
describe('bundlers', () => bundlerTests(() => consumer));
describe('side effects', () => sideEffectTests(() => consumer));
describe('workers', () => workerTests(() => consumer));
