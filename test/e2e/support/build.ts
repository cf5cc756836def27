/**
 * The e2e suite runs the script tag users get: dist/hogtail.iife.js, and the extension files beside
 * it. `npm test` builds them first; a lone `npx vitest run test/e2e` rebuilds them here when one is
 * missing or older than any source under src/browser, src/core or src/extensions. Test files run in parallel workers, so the build is guarded by a lock
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
/** The extension files the tag loads (src/extensions), built with it. */
const EXTENSIONS = ['dist/hogtail.surveys.js', RECORDER];

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * The extension files (src/extensions) are built after the script tags, the last of them last:
 * waiting for it too keeps a test from reading one while the build still writes it.
 */
const LAST_EXTENSION = 'dist/hogtail.dead-clicks.js';

function fresh(): boolean {
  const sources = Math.max(...['src/browser', 'src/core', 'src/extensions'].map((dir) => newestSource(repoRoot + dir)));
  return [IIFE, ESM, ...EXTENSIONS, LAST_EXTENSION].every(
    (file) => existsSync(repoRoot + file) && statSync(repoRoot + file).mtimeMs >= sources,
  );
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
