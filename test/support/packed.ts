// The package as users install it: `npm pack` of the built tree, unpacked into a throwaway project's
// node_modules next to the few packages it needs (fflate, and react for hogtail/react). One pack
// and one install serve every packaging test, so they live in one test file (test/package.test.ts).
import { execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ensureBuilt, repoRoot } from './built';

/** Packages a consumer of hogtail has installed beside it (runtime dependency and optional peers). */
const BESIDE = ['fflate', 'react', 'react-dom', '@types/react', '@types/react-dom', '@types/node', 'undici-types'];

export function installPacked(): string {
  ensureBuilt('dist/types/browser/index.d.cts');
  const consumer = mkdtempSync(join(tmpdir(), 'hogtail-consumer-'));
  // `npm test` has just built dist/: --ignore-scripts packs that build instead of running a `prepack`
  // build a second time (packing from a clean tree, which needs it, is a test of its own).
  execFileSync('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', consumer], { cwd: repoRoot, stdio: 'pipe' });
  const tarball = readdirSync(consumer).find((name) => name.endsWith('.tgz'))!;
  const installed = join(consumer, 'node_modules', 'hogtail');
  mkdirSync(installed, { recursive: true });
  execFileSync('tar', ['-xzf', join(consumer, tarball), '-C', installed, '--strip-components=1']);
  for (const name of BESIDE) {
    const source = join(repoRoot, 'node_modules', name);
    if (!existsSync(source)) continue;
    mkdirSync(dirname(join(consumer, 'node_modules', name)), { recursive: true });
    symlinkSync(source, join(consumer, 'node_modules', name));
  }
  return consumer;
}

/** Every subpath of the packed package.json's `exports` (`.`, `./browser`, …). */
export function exportedSubpaths(consumer: string): string[] {
  const manifest = JSON.parse(readFileSync(join(consumer, 'node_modules/hogtail/package.json'), 'utf8')) as { exports: Record<string, unknown> };
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
