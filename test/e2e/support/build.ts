/**
 * The e2e suite runs the script tag users get: dist/hogtail.iife.js. `npm test` builds it first; a
 * lone `npx vitest run test/e2e` rebuilds it here when it is missing or older than any source under
 * src/browser or src/core. Test files run in parallel workers, so the build is guarded by a lock
 * directory (atomic mkdir) and the others wait for it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../support/built';

const IIFE = 'dist/hogtail.iife.js';
const ESM = 'dist/browser/index.js';
/** Session replay's extension file, loaded by the tag when recording is on. */
export const RECORDER = 'dist/hogtail.recorder.js';

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function fresh(): boolean {
  const sources = Math.max(...['src/browser', 'src/core', 'src/extensions'].map((dir) => newestSource(repoRoot + dir)));
  return [IIFE, ESM, RECORDER].every((file) => existsSync(repoRoot + file) && statSync(repoRoot + file).mtimeMs >= sources);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Absolute path of a fresh dist/hogtail.iife.js (and dist/browser/index.js). */
export async function ensureBrowserBuild(): Promise<string> {
  const lock = repoRoot + 'node_modules/.cache/hogtail/browser-build.lock';
  mkdirSync(repoRoot + 'node_modules/.cache/hogtail', { recursive: true });
  while (!fresh()) {
    try {
      mkdirSync(lock);
    } catch {
      // Someone else is building; a lock older than two minutes was left by a crash.
      if (Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > 120_000)
        rmSync(lock, { recursive: true, force: true });
      await sleep(200);
      continue;
    }
    try {
      if (!fresh()) {
        execFileSync('npm', ['run', 'build', '--silent'], { cwd: repoRoot, stdio: 'inherit' });
      }
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  return repoRoot + IIFE;
}
