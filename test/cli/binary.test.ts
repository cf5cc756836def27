// The real `hogtail` command (bin/hogtail.js over dist/), as a shell runs it: the version flags, and
// a successful capture that says what happened instead of exiting in silence.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createCollector, type Collector } from '../../src/devserver';
import { ensureBuilt, repoRoot } from '../support/built';

const BIN = join(repoRoot, 'bin/hogtail.js');

/** Runs the command to its end; the environment carries no HOGTAIL_* settings of the machine. */
function hogtail(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  ensureBuilt('dist/cli/index.js');
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('HOGTAIL_')));
  const child = spawn(process.execPath, [BIN, ...args], { cwd: repoRoot, env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

let collector: Collector | undefined;
afterEach(async () => {
  await collector?.close();
  collector = undefined;
});

it('--version and -v print the package version', async () => {
  const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
  for (const flag of ['--version', '-v']) {
    expect(await hogtail([flag])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  }
});

it('a delivered capture prints what was sent where, and that the server accepted it', async () => {
  collector = await createCollector();
  const run = await hogtail([
    'capture',
    'deploy',
    '--distinct-id',
    'ci',
    '--prop',
    'version=1.2.3',
    '--api-key',
    'phc_cli',
    '--host',
    collector.url,
  ]);
  expect(run).toEqual({ code: 0, stdout: `hogtail capture: sent 1 event ("deploy" for "ci") to ${collector.url}: accepted\n`, stderr: '' });
  expect(collector.events.map((event) => event.event)).toEqual(['deploy']);
});
