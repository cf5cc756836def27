// Runs a CLI command in-process with captured output, as the lead's entry point would call it.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import type { CommandIo } from '../../src/cli/import-command';

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'hogtail-import-test-'));
}

export async function runCommand(
  run: (args: string[], io: CommandIo) => Promise<number>,
  args: string[],
  /** `stdin`: the whole input, or a stream the test feeds while the command runs. */
  options: { cwd?: string; stdin?: string | Buffer | NodeJS.ReadableStream; env?: Record<string, string | undefined> } = {},
): Promise<CommandResult> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const code = await run(args, {
    env: options.env ?? {},
    stdin:
      typeof options.stdin === 'object' && !Buffer.isBuffer(options.stdin)
        ? options.stdin
        : Readable.from(options.stdin === undefined ? [] : [Buffer.from(options.stdin)]),
    stdout,
    stderr,
    isTTY: false,
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    onInterrupt: () => () => {},
  });
  return { code, stdout: out, stderr: err };
}
