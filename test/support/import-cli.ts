// Builds `hogtail import` / `hogtail capture` into a runnable script for child-process tests (SIGKILL,
// SIGINT), from source, with the project's own TypeScript settings. The lead's CLI entry wires the
// commands into `hogtail`; this keeps the tests independent of that wiring.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rollup } from 'rollup';
import typescript from '@rollup/plugin-typescript';
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
  const bundle = await rollup({
    input: entry,
    external: (id) => id === 'fflate' || id.startsWith('fflate/') || id.startsWith('node:'),
    plugins: [typescript({ tsconfig: join(repoRoot, 'tsconfig.build.json'), declaration: false, declarationMap: false, declarationDir: dir, outDir: dir, rootDir: repoRoot, noEmitOnError: false, include: [join(repoRoot, 'src/**/*.ts')] })],
    onwarn: () => {},
  });
  const out = join(dir, 'hogtail-commands.mjs');
  await bundle.write({ file: out, format: 'es' });
  await bundle.close();
  return out;
}
