// Builds `hogtail import` / `hogtail capture` into a runnable script for child-process tests (SIGKILL,
// SIGINT, a process that must stay alive on its own), from source. esbuild, not the project's
// rollup build: it takes a fraction of a second where a type-checking build took most of a minute
// on a busy machine; typecheck runs on its own in `npm test`.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { repoRoot } from './built';

const WRAPPER = `
import { runImportCommand } from ${JSON.stringify(join(repoRoot, 'src/cli/import-command.ts'))};
import { runCaptureCommand } from ${JSON.stringify(join(repoRoot, 'src/cli/capture-command.ts'))};
const [command, ...args] = process.argv.slice(2);
const run = command === 'capture' ? runCaptureCommand : runImportCommand;
const io = { env: process.env, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, isTTY: process.stderr.isTTY === true };
run(args, io).then((code) => { process.exitCode = code; }, (error) => { console.error(error); process.exitCode = 1; });
`;

/** Returns the path of a script: `node <script> import FILE …` or `node <script> capture EVENT …`. */
export async function buildCommandScript(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'hogtail-cli-'));
  const entry = join(dir, 'entry.mjs');
  writeFileSync(entry, WRAPPER);
  const out = join(dir, 'hogtail-commands.mjs');
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: out,
    external: ['fflate'],
    logLevel: 'silent',
  });
  return out;
}
