// The package as npm ships it: packed with `npm pack`, unpacked into a consumer's node_modules, then
// imported and required at run time and type-checked under each TypeScript module resolution a
// Node or bundler project uses. Catches a file left out of `files`, a broken `exports` map, and
// declarations that only work in this repository's own tsconfig.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureBuilt, repoRoot } from './support/built';

let consumer: string;

beforeAll(() => {
  ensureBuilt('dist/types/node/index.d.cts');
  consumer = mkdtempSync(join(tmpdir(), 'hogtail-consumer-'));
  execFileSync('npm', ['pack', '--silent', '--pack-destination', consumer], { cwd: repoRoot, stdio: 'pipe' });
  const tarball = readdirSync(consumer).find((name) => name.endsWith('.tgz'))!;
  const installed = join(consumer, 'node_modules', 'hogtail');
  mkdirSync(installed, { recursive: true });
  execFileSync('tar', ['-xzf', join(consumer, tarball), '-C', installed, '--strip-components=1']);
  symlinkSync(join(repoRoot, 'node_modules', 'fflate'), join(consumer, 'node_modules', 'fflate'));
  const use = `const client = new PostHog('phc_x', { host: 'http://127.0.0.1:1', flushOnExitTimeout: 0 });
client.capture({ distinctId: 'u', event: 'e', properties: { plan: 'pro' } });
export const enqueued: number = client.stats().enqueued;
export const api: typeof createApiClient = createApiClient;
`;
  writeFileSync(join(consumer, 'esm.mts'), `import { PostHog } from 'hogtail/node';\nimport { createApiClient } from 'hogtail/api';\n${use}`);
  writeFileSync(join(consumer, 'cjs.cts'), `import { PostHog } from 'hogtail/node';\nimport { createApiClient } from 'hogtail/api';\n${use}`);
  writeFileSync(join(consumer, 'app.ts'), `import { PostHog } from 'hogtail/node';\nimport { createApiClient } from 'hogtail/api';\n${use}`);
}, 120_000);

afterAll(() => rmSync(consumer, { recursive: true, force: true }));

function typecheck(module: string, moduleResolution: string, files: string[]) {
  const config = join(consumer, `tsconfig.${moduleResolution}.json`);
  writeFileSync(
    config,
    JSON.stringify({
      compilerOptions: { target: 'es2022', module, moduleResolution, strict: true, noEmit: true, skipLibCheck: false, types: [] },
      files,
    }),
  );
  return spawnSync(process.execPath, [join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', config], { cwd: consumer, encoding: 'utf8' });
}

it.each([
  ['node16', 'node16', ['esm.mts', 'cjs.cts']],
  ['nodenext', 'nodenext', ['esm.mts', 'cjs.cts']],
  ['esnext', 'bundler', ['app.ts']],
  ['commonjs', 'node10', ['app.ts']],
])('the declarations type-check in a consumer with module %s, moduleResolution %s', (module, resolution, files) => {
  const result = typecheck(module, resolution, files);
  expect(result.stdout + result.stderr).toBe('');
  expect(result.status).toBe(0);
}, 60_000);

it('hogtail/node and hogtail/api load with require() and import', () => {
  const script = `const client = new PostHog('phc_x', { host: 'http://127.0.0.1:1', flushOnExitTimeout: 0 });
console.log(typeof client.capture, typeof createApiClient); client.shutdown(0);`;
  const cjs = spawnSync(process.execPath, ['-e', `const { PostHog } = require('hogtail/node'); const { createApiClient } = require('hogtail/api');\n${script}`], {
    cwd: consumer,
    encoding: 'utf8',
  });
  const esm = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', `import { PostHog } from 'hogtail/node'; import { createApiClient } from 'hogtail/api';\n${script}`],
    { cwd: consumer, encoding: 'utf8' },
  );
  expect([cjs.stderr, esm.stderr]).toEqual(['', '']);
  expect([cjs.stdout.trim(), esm.stdout.trim()]).toEqual(['function function', 'function function']);
});
