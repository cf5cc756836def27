/**
 * The `hogtail` command. Each subcommand lives in its own file and is loaded only when used, so
 * `hogtail capture` in a cron job does not pay for the dev server.
 */
import { readFileSync } from 'node:fs';

export const USAGE = `Usage: hogtail <command> [options]

Commands:
  dev                       local PostHog-compatible collector with a live events page (--help)
  import FILE...            historical migration: validated, ordered, resumable (--help for options)
  capture EVENT             send one event from a shell script or cron job
  api <resource> <action>   call the management API (key from HOGTAIL_PERSONAL_API_KEY)

Run 'hogtail <command> --help' for a command's options; 'hogtail --version' (-v) prints the version.`;

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const lineIo = {
    env: process.env,
    stdout: (text: string) => void process.stdout.write(text.endsWith('\n') ? text : text + '\n'),
    stderr: (text: string) => void process.stderr.write(text.endsWith('\n') ? text : text + '\n'),
  };
  const streamIo = {
    env: process.env,
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    isTTY: process.stderr.isTTY === true,
  };
  switch (command) {
    case 'dev': {
      const { runDevCommand } = await import('./dev-command');
      return runDevCommand(rest, lineIo);
    }
    case 'import': {
      const { runImportCommand } = await import('./import-command');
      return runImportCommand(rest, streamIo);
    }
    case 'capture': {
      const { runCaptureCommand } = await import('./capture-command');
      return runCaptureCommand(rest, streamIo);
    }
    case 'api': {
      const { runApiCommand } = await import('./api-command');
      return runApiCommand(rest, lineIo);
    }
    case '--version':
    case '-v': {
      // The installed package's own package.json, two folders up from both src/cli and dist/cli
      // (read here rather than importing LIB_VERSION, which would split a shared chunk of the build).
      const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
      process.stdout.write(manifest.version + '\n');
      return 0;
    }
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(USAGE + '\n');
      return command === undefined ? 2 : 0;
    default:
      process.stderr.write(`hogtail: unknown command '${command}'.\n${USAGE}\n`);
      return 2;
  }
}
