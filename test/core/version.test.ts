import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { LIB_VERSION } from '../../src/core/version';

it('LIB_VERSION matches package.json', () => {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  expect(LIB_VERSION).toBe(pkg.version);
});
