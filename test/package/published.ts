// What `npm publish` from a fresh clone would ship: the tarball is packed in a clean copy of the
// tree (test/support/packed.ts), where nothing is built until `prepack` builds it. Before prepack
// existed such a tarball held three files and a CLI that could not start.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { tarballFiles } from '../support/packed';

export function publishedTests(consumer: () => string): void {
  it('the tarball packed from a clean tree holds the build, the licence and the README', () => {
    const files = tarballFiles(consumer());
    for (const file of [
      'dist/browser/index.js',
      'dist/node/index.js',
      'dist/cli/index.js',
      'dist/hogtail.iife.js',
      'dist/types/browser/index.d.ts',
    ]) {
      expect(files).toContain(`package/${file}`);
    }
    expect(files).toEqual(
      expect.arrayContaining(['package/LICENSE', 'package/README.md', 'package/bin/hogtail.js', 'package/package.json']),
    );
    // Only what users need: no sources, tests or lock file.
    expect(files.filter((file) => /^package\/(src|test|scripts|bench)\/|package-lock/.test(file))).toEqual([]);
  });

  it('the packed CLI starts: `hogtail --version` and `-v` print the package version', () => {
    const installed = join(consumer(), 'node_modules/hogtail');
    const { version } = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-v']) {
      const run = spawnSync(process.execPath, [join(installed, 'bin/hogtail.js'), flag], { cwd: consumer(), encoding: 'utf8' });
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(run.stdout).toBe(`${version}\n`);
    }
  });
}
