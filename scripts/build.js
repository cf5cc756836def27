#!/usr/bin/env node
// `npm run build`: dist/ from two jobs side by side, each saying when it starts and ends:
//   - the bundles: `rollup -c` (rollup.config.mjs), TypeScript turned into JavaScript file by file,
//     the browser's (minified, the slow half) and the others' in two processes;
//   - the declarations: one `tsc -p tsconfig.build.json --emitDeclarationOnly`, which also
//     type-checks src (a type error fails the build), then scripts/declarations.js. `npm test`
//     builds with HOGTAIL_BUILD_TYPECHECK=elsewhere: its typecheck step checks src beside the
//     build, so the declarations are emitted without checking them a second time (tsc --noCheck).
// One tsc program instead of one per rollup build (six) is most of what makes the build fast.
// dist/ is not emptied first (tests may be reading it while an e2e run rebuilds); files this build
// did not write, such as chunks under an old content hash, are removed at the end.
import { spawn } from 'node:child_process';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const started = performance.now();
const startedAt = Date.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;

/** Deletes every file under `dir` last written before `since` (ms since the epoch). */
function removeStale(dir, since) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) removeStale(path, since);
    else if (statSync(path).mtimeMs < since) rmSync(path, { force: true });
  }
}

/** Runs a Node script of this repository or its node_modules; resolves with its exit code. */
function step(label, script, args = [], env = {}) {
  console.log(`build: ${label}…`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [root + script, ...args], { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('error', (error) => {
      console.error(`build: ${label} could not start: ${error.message}`);
      resolve(1);
    });
    child.on('exit', (code) => {
      console.log(`build: ${label} ${code === 0 ? 'done' : `failed (exit code ${code})`} at ${elapsed()}`);
      resolve(code ?? 1);
    });
  });
}

const checkHere = process.env.HOGTAIL_BUILD_TYPECHECK !== 'elsewhere';
const rollup = (part) => step(`${part} bundles (rollup -c)`, 'node_modules/rollup/dist/bin/rollup', ['-c'], { HOGTAIL_BUILD: part });
const [browser, server, declarations] = await Promise.all([
  rollup('browser'),
  rollup('server'),
  step(
    checkHere ? 'declarations and type check (tsc -p tsconfig.build.json)' : 'declarations (tsc -p tsconfig.build.json --noCheck)',
    'node_modules/typescript/bin/tsc',
    ['-p', 'tsconfig.build.json', '--emitDeclarationOnly', ...(checkHere ? [] : ['--noCheck'])],
  ).then((code) => (code === 0 ? step('declaration extensions (scripts/declarations.js)', 'scripts/declarations.js') : code)),
]);
const failed = browser !== 0 || server !== 0 || declarations !== 0;
// A margin for file systems whose timestamps run a little behind the clock.
if (!failed) removeStale(root + 'dist', startedAt - 2_000);
console.log(`build: ${failed ? 'FAILED' : 'done'} in ${elapsed()}`);
process.exit(failed ? 1 : 0);
