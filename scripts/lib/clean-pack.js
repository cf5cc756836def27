// `npm pack` in a clean copy of the tree: what `npm publish` from a fresh clone would ship. The copy
// holds what a clone would (tracked files, and new ones git does not ignore) with their content as
// it is now, and no dist/, so packing must build it (`prepack`). Used twice, so the build runs once:
// `npm test` builds this way and copies the clean build's dist/ back for every other suite, handing
// the tarball to the package test (HOGTAIL_PACKED_TARBALL); the package test run alone packs itself.
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/**
 * A copy of what a clone of this tree would have. node_modules is linked, not installed: `npm ci`
 * is minutes of network for packages this repository already has.
 */
export function cleanCopy() {
  const copy = mkdtempSync(join(tmpdir(), 'hogtail-clean-'));
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: repoRoot, encoding: 'utf8' });
  for (const file of new Set(listed.split('\0'))) {
    const from = join(repoRoot, file);
    // A deleted tracked file, and the node_modules link of a worktree (a link is not the ignored folder).
    if (file === '' || file === 'node_modules' || !existsSync(from) || lstatSync(from).isSymbolicLink()) continue;
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    copyFileSync(from, join(copy, file));
  }
  symlinkSync(join(repoRoot, 'node_modules'), join(copy, 'node_modules'));
  return copy;
}

/**
 * Packs a clean copy into `destination`; resolves with the tarball's path and the copy (whose dist/
 * is the build the tarball holds; the caller removes it). `live`: the build's progress shows as it
 * goes; otherwise the output is shown only when packing fails. `env`: added to the build's environment.
 */
export function packClean(destination, { live = false, env = {} } = {}) {
  const copy = cleanCopy();
  const child = spawn(NPM, ['pack', '--silent', '--pack-destination', destination], {
    cwd: copy,
    stdio: live ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => {
      const tarball = readdirSync(destination).find((name) => name.endsWith('.tgz'));
      if (code === 0 && tarball !== undefined) return resolve({ tarball: join(destination, tarball), copy });
      rmSync(copy, { recursive: true, force: true });
      reject(new Error(`npm pack in a clean copy failed (exit code ${code})${live ? '' : `:\n${output}`}`));
    });
  });
}

/** Replaces this tree's dist/ with the clean copy's: the one build every suite then tests. */
export function takeDist(copy) {
  rmSync(join(repoRoot, 'dist'), { recursive: true, force: true });
  cpSync(join(copy, 'dist'), join(repoRoot, 'dist'), { recursive: true });
}
