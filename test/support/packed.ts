// The package as users install it: `npm pack` run in a clean copy of the source tree (what a fresh
// clone holds: no dist/, so packing must build it), unpacked into a throwaway project's node_modules
// next to the few packages it needs (fflate, and react for hogtail/react). One pack and one install
// serve every packaging test, so they live in one test file (test/package.test.ts).
import { execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { repoRoot } from './built';

/** Packages a consumer of hogtail has installed beside it (runtime dependency and optional peers). */
const BESIDE = ['fflate', 'react', 'react-dom', '@types/react', '@types/react-dom', '@types/node', 'undici-types'];

/**
 * The files a clone of this tree would have (tracked, or new and not ignored), with their content as
 * it is now, so uncommitted work is packed too. node_modules is linked, not installed: `npm ci` is
 * minutes of network for packages this repository already has.
 */
export function cleanCopy(): string {
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

/** `npm pack` in a clean copy (its `prepack` builds); the tarball lands in `destination`. */
export function packCleanTree(destination: string): string {
  const copy = cleanCopy();
  try {
    const packed = spawnSync('npm', ['pack', '--pack-destination', destination], { cwd: copy, encoding: 'utf8' });
    if (packed.status !== 0) throw new Error(`npm pack in a clean copy failed (${packed.status}):\n${packed.stdout}\n${packed.stderr}`);
    return join(destination, readdirSync(destination).find((name) => name.endsWith('.tgz'))!);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

/** A consumer project with the clean tree's tarball installed; `tarball` is kept in it. */
export function installPacked(): string {
  const consumer = mkdtempSync(join(tmpdir(), 'hogtail-consumer-'));
  const tarball = packCleanTree(consumer);
  const installed = join(consumer, 'node_modules', 'hogtail');
  mkdirSync(installed, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1']);
  for (const name of BESIDE) {
    const source = join(repoRoot, 'node_modules', name);
    if (!existsSync(source)) continue;
    mkdirSync(dirname(join(consumer, 'node_modules', name)), { recursive: true });
    symlinkSync(source, join(consumer, 'node_modules', name));
  }
  return consumer;
}

/** The files in the consumer's tarball, as `tar -t` names them (package/…). */
export function tarballFiles(consumer: string): string[] {
  const tarball = readdirSync(consumer).find((name) => name.endsWith('.tgz'))!;
  return execFileSync('tar', ['-tzf', join(consumer, tarball)], { encoding: 'utf8' })
    .trim()
    .split('\n');
}

/** Every subpath of the packed package.json's `exports` (`.`, `./browser`, …). */
export function exportedSubpaths(consumer: string): string[] {
  const manifest = JSON.parse(readFileSync(join(consumer, 'node_modules/hogtail/package.json'), 'utf8')) as {
    exports: Record<string, unknown>;
  };
  return Object.keys(manifest.exports);
}

/** `hogtail` + subpath as an import specifier. */
export const specifier = (subpath: string): string => (subpath === '.' ? 'hogtail' : `hogtail/${subpath.slice(2)}`);

/** A tool from this repository's node_modules, run with the consumer as working directory. */
export function runTool(consumer: string, script: string, args: string[], cwd = consumer): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [join(repoRoot, 'node_modules', script), ...args], { cwd, encoding: 'utf8' });
}

/** Node running `code` as ESM (or CommonJS) in the consumer project. */
export function runNode(consumer: string, code: string, type: 'module' | 'commonjs' = 'module'): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [`--input-type=${type}`, '-e', code], { cwd: consumer, encoding: 'utf8' });
}
