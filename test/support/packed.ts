// The package as users install it: `npm pack` run in a clean copy of the source tree (what a fresh
// clone holds: no dist/, so packing must build it; scripts/lib/clean-pack.js), unpacked into a
// throwaway project's node_modules next to the few packages it needs (fflate, and react for
// hogtail/react). One pack and one install serve every packaging test, so they live in one test
// file (test/package.test.ts).
import { execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { packClean } from '../../scripts/lib/clean-pack.js';
import { repoRoot } from './built';

/** Packages a consumer of hogtail has installed beside it (runtime dependency and optional peers). */
const BESIDE = ['fflate', 'react', 'react-dom', '@types/react', '@types/react-dom', '@types/node', 'undici-types'];

/**
 * A consumer project with the clean tree's tarball installed; the tarball is kept in it. Under
 * `npm test` the tarball comes from its build step, which packed a clean copy already
 * (HOGTAIL_PACKED_TARBALL, scripts/lib/clean-pack.js); run alone, this packs one.
 */
export async function installPacked(): Promise<string> {
  const consumer = mkdtempSync(join(tmpdir(), 'hogtail-consumer-'));
  const handed = process.env.HOGTAIL_PACKED_TARBALL;
  let tarball: string;
  if (handed !== undefined && existsSync(handed)) {
    tarball = join(consumer, basename(handed));
    copyFileSync(handed, tarball);
  } else {
    const packed = await packClean(consumer);
    rmSync(packed.copy, { recursive: true, force: true });
    tarball = packed.tarball;
  }
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
