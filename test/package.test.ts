// The package as npm ships it, packed once and installed into a throwaway consumer project: types
// under every module resolution, runtime loading from ESM and CommonJS, and small apps built with
// Vite and esbuild. Catches a file left out of `files`, a broken `exports` map, declarations that
// only work in this repository's own tsconfig, and a root import that breaks server rendering.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe } from 'vitest';
import { bundlerTests } from './package/bundlers';
import { runtimeTests } from './package/runtime';
import { typeTests } from './package/types';
import { workerTests } from './package/workers';
import { installPacked } from './support/packed';

let consumer = '';
beforeAll(() => {
  consumer = installPacked();
}, 120_000);
afterAll(() => rmSync(consumer, { recursive: true, force: true }));

describe('types', () => typeTests(() => consumer));
describe('runtime', () => runtimeTests(() => consumer));
describe('bundlers', () => bundlerTests(() => consumer));
describe('workers', () => workerTests(() => consumer));
