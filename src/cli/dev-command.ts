/**
 * `hogtail dev [--port 8010] [--host H] [--flags flags.json] [--surveys surveys.json] [--data DIR] [--fixtures F] [--open]
 * [--no-recordings] [--no-web-vitals] [--no-heatmaps] [--no-dead-clicks]`: a local PostHog-compatible
 * collector with a live page. Runs until interrupted (Ctrl-C), or until
 * `io.signal` aborts when embedded. Exit codes: 0 stopped cleanly, 1 could not start, 2 bad usage.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isLoopbackHost } from '../devserver/dev/host';
import { loadFixturesFile } from '../devserver/dev/fixtures';
import type { DevProducts } from '../devserver/dev/products';
import { startDevServer, type DevServer } from '../devserver/dev/server';
import { DEV_PERSONAL_API_KEY } from '../devserver/management';
import { helpText, parseFlags, UsageError, type FlagTable } from './common/flags';

export interface DevCommandIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Stops the server and resolves the command. Default: SIGINT / SIGTERM of this process. */
  signal?: AbortSignal;
  /** Called once the server listens, for embedding (npm start, tests). */
  onListening?: (server: DevServer) => void;
}

/** The dev flags: a new one is a row here plus its reading in parseDevArgs. */
export const DEV_FLAGS: FlagTable = {
  port: { kind: 'string', value: 'N', help: 'port to listen on (default 8010; 0 picks a free one)' },
  host: { kind: 'string', value: 'H', help: 'address to bind (default 127.0.0.1; anything else exposes your data to the network)' },
  flags: { kind: 'string', value: 'FILE', help: 'feature flag definitions for decide, re-read when the file changes' },
  surveys: { kind: 'string', value: 'FILE', help: "surveys for /api/surveys/ (PostHog's shape), re-read when the file changes" },
  data: { kind: 'string', value: 'DIR', help: 'where events are kept, so they survive a restart (default: a new temporary directory)' },
  fixtures: {
    kind: 'string',
    value: 'FILE',
    help: 'management API data (members, exports, recordings, subscriptions); default: seed data',
  },
  'no-recordings': { kind: 'boolean', help: 'tell SDKs that session replay is off (default: on, recordings play on the events page)' },
  open: { kind: 'boolean', help: 'open the events page in your browser' },
  'no-web-vitals': { kind: 'boolean', help: 'leave web vitals off in the remote config (on by default)' },
  'no-heatmaps': { kind: 'boolean', help: 'leave heatmaps off in the remote config (on by default)' },
  'no-dead-clicks': { kind: 'boolean', help: 'leave dead clicks off in the remote config (on by default)' },
  help: { kind: 'boolean', help: 'show this help (also -h)' },
};

export const DEV_USAGE = helpText(
  `Usage: hogtail dev [options]

A local PostHog-compatible collector: point an SDK's host at it and watch events arrive.`,
  DEV_FLAGS,
);

interface DevArgs {
  port: number;
  host: string;
  flags?: string;
  surveys?: string;
  data?: string;
  fixtures?: string;
  recordings: boolean;
  open: boolean;
  help: boolean;
  /** The browser products the remote config turns on. */
  products: DevProducts;
}

/** The command line as DevArgs; throws UsageError. */
export function parseDevArgs(args: readonly string[]): DevArgs {
  const flags = parseFlags(args, DEV_FLAGS, { positionals: false });
  const portText = flags.strings.get('port');
  const port = portText === undefined ? 8010 : Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new UsageError(`--port must be a port number, got '${portText}'`);
  return {
    port,
    host: flags.strings.get('host') ?? '127.0.0.1',
    ...optional('flags', flags.strings.get('flags')),
    ...optional('surveys', flags.strings.get('surveys')),
    ...optional('data', flags.strings.get('data')),
    ...optional('fixtures', flags.strings.get('fixtures')),
    recordings: !flags.booleans.has('no-recordings'),
    open: flags.booleans.has('open'),
    help: flags.booleans.has('help'),
    products: {
      webVitals: !flags.booleans.has('no-web-vitals'),
      heatmaps: !flags.booleans.has('no-heatmaps'),
      deadClicks: !flags.booleans.has('no-dead-clicks'),
    },
  };
}

function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return (value === undefined ? {} : { [key]: value }) as Partial<Record<K, string>>;
}

export async function runDevCommand(args: readonly string[], io: DevCommandIo): Promise<number> {
  let parsed: DevArgs;
  try {
    parsed = parseDevArgs(args);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`hogtail dev: ${error.message}\n${DEV_USAGE}`);
    return 2;
  }
  if (parsed.help) {
    io.stdout(DEV_USAGE);
    return 0;
  }

  if (!isLoopbackHost(parsed.host)) {
    io.stderr(
      `hogtail dev: WARNING: binding ${parsed.host}, not loopback. Anyone who can reach this machine can send events, ` +
        `read everything captured and use the management endpoints with the well-known dev key.`,
    );
  }

  let server: DevServer;
  try {
    const dataDir = parsed.data === undefined ? mkdtempSync(join(tmpdir(), 'hogtail-dev-')) : resolve(parsed.data);
    server = await startDevServer({
      dataDir,
      host: parsed.host,
      port: parsed.port,
      ...(parsed.flags === undefined ? {} : { flagsFile: resolve(parsed.flags) }),
      ...(parsed.surveys === undefined ? {} : { surveysFile: resolve(parsed.surveys) }),
      ...(parsed.fixtures === undefined ? {} : { fixtures: loadFixturesFile(resolve(parsed.fixtures)) }),
      products: parsed.products,
      sessionRecording: parsed.recordings,
      log: (line) => io.stderr(`hogtail dev: ${line}`),
    });
  } catch (error) {
    io.stderr(`hogtail dev: could not start: ${describeStartError(error, parsed)}`);
    return 1;
  }

  printBanner(server, parsed, io);
  io.onListening?.(server);
  if (parsed.open) openBrowser(server.url, io);

  await waitForStop(io.signal);
  io.stderr('hogtail dev: stopping');
  await server.close();
  return 0;
}

function printBanner(server: DevServer, args: DevArgs, io: DevCommandIo): void {
  const loaded = server.store.loaded;
  const lines = [
    `hogtail dev: listening on ${server.url}`,
    `  events page     ${server.url}/`,
    `  SDK host        ${server.url}  (capture, batch, /e/, /i/v0/e/, /s/, decide)`,
    `  recordings      ${args.recordings ? `on: session replay plays on the events page (--no-recordings turns it off)` : 'off (--no-recordings)'}`,
    `  scripts         ${server.url}/_dev/events?limit=20   ${server.url}/_dev/summary`,
    `  management API  ${server.url}/api/environments/${server.management.projectId}/…  (Bearer ${DEV_PERSONAL_API_KEY})`,
    `  data            ${server.dataDir}` +
      (args.data === undefined ? `  (temporary; pass --data ${server.dataDir} to keep events across restarts)` : ''),
    `  flags           ${args.flags === undefined ? 'none (pass --flags flags.json)' : `${resolve(args.flags)} (${server.flags.definitions().flags.length} flags, re-read on change)`}`,
    `  surveys         ${args.surveys === undefined ? 'none (pass --surveys surveys.json)' : `${resolve(args.surveys)} (re-read on change)`}`,
  ];
  if (loaded.events > 0 || loaded.rejections > 0) {
    lines.push(`  restored        ${loaded.events} events and ${loaded.rejections} rejections from earlier runs`);
  }
  if (loaded.skippedLines > 0) lines.push(`  skipped         ${loaded.skippedLines} unreadable line(s) in the data files (a torn write?)`);
  io.stdout(lines.join('\n'));
}

function describeStartError(error: unknown, args: DevArgs): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') return `port ${args.port} on ${args.host} is in use; pick another with --port`;
  if (code === 'EADDRNOTAVAIL') return `${args.host} is not an address of this machine`;
  if (code === 'ENOENT' && error instanceof Error) return error.message;
  return error instanceof Error ? error.message : String(error);
}

function waitForStop(signal: AbortSignal | undefined): Promise<void> {
  if (signal !== undefined) {
    if (signal.aborted) return Promise.resolve();
    return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  }
  return new Promise((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/** Best effort: a machine without a desktop just prints the URL, which the banner already did. */
function openBrowser(url: string, io: DevCommandIo): void {
  const [command, ...args] =
    process.platform === 'darwin' ? ['open', url] : process.platform === 'win32' ? ['cmd', '/c', 'start', '""', url] : ['xdg-open', url];
  try {
    const child = spawn(command ?? 'xdg-open', args, { detached: true, stdio: 'ignore' });
    child.on('error', () => io.stderr(`hogtail dev: could not open a browser; visit ${url}/`));
    child.unref();
  } catch {
    io.stderr(`hogtail dev: could not open a browser; visit ${url}/`);
  }
}
