/**
 * `hogtail import FILE... [options]`: historical migration (docs/wire-protocol.md, "Historical migration"). Rows are validated
 * before anything is sent, sent in file order with `historical_migration: true`, and checkpointed
 * as the server acknowledges them, so a crash or Ctrl-C can be resumed without loss or duplicates.
 *
 * Exit codes: 0 done (rejected rows are listed, not an error), 1 the import stopped (server
 * refused or unreachable, input broken), 2 the command line is wrong or does not fit the input
 * (changed since its checkpoint, a CSV column missing), 130 interrupted.
 */
import { DEFAULT_HOST } from '../core/defaults';
import { resolveConnection } from './common/connection';
import { helpText, parseFlags, positiveInteger, UsageError, type FlagSpec, type ParsedFlags } from './common/flags';
import { INPUT_FORMATS, type InputFormat } from './import/input-format';
import { parseMapping } from './import/mapping';
import { EXIT_USAGE, runImport, type ImportIo } from './import/run-import';
import { TIMESTAMP_FORMATS, type TimestampFormat } from './import/timestamp';
import { defaultInterrupt, type CommandIo } from './common/command-io';
import { holdProcessOpen } from './common/keep-alive';

export type { CommandIo } from './common/command-io';

const FLAGS: Record<string, FlagSpec> = {
  'api-key': { kind: 'string', value: 'KEY', help: 'project API key, phc_… (or HOGTAIL_API_KEY)' },
  host: { kind: 'string', value: 'URL', help: `ingestion host (or HOGTAIL_HOST; default ${DEFAULT_HOST})` },
  format: { kind: 'string', value: 'ndjson|csv|json', help: 'input format (default: from the file name, else sniffed)' },
  map: {
    kind: 'list',
    value: 'event=COL,distinct_id=COL,timestamp=COL',
    help: 'source fields for event, distinct id, timestamp; other NAME=COL pairs copy a column into property NAME',
  },
  'timestamp-format': {
    kind: 'string',
    value: 'iso|epoch-s|epoch-ms',
    help: 'how timestamps are written (default iso; no zone means UTC)',
  },
  'dry-run': { kind: 'boolean', help: 'validate every row and print a summary; send nothing' },
  resume: { kind: 'boolean', help: 'continue from the checkpoint of an earlier run; the input must be unchanged (ignored by --dry-run)' },
  rejects: { kind: 'string', value: 'FILE', help: 'write refused rows here as NDJSON (default hogtail-import-<id>.rejects.ndjson)' },
  checkpoint: {
    kind: 'string',
    value: 'FILE',
    help: 'checkpoint file (default hogtail-import-<id>.checkpoint.json in the current directory)',
  },
  'source-id': { kind: 'string', value: 'ID', help: 'name the input for its uuids instead of path+size+content (e.g. a stdin stream)' },
  'batch-size': { kind: 'string', value: 'N', help: 'events per request (default 1000)' },
  'checkpoint-rows': {
    kind: 'string',
    value: 'N',
    help: 'rows per checkpoint step at most (default 5000); the checkpoint also moves with every acknowledged request',
  },
  retries: { kind: 'string', value: 'N', help: 'attempts per request before giving up, with backoff and Retry-After (default 8)' },
  timeout: { kind: 'string', value: 'MS', help: 'per-request timeout in ms (default 60000)' },
  'compression-level': { kind: 'string', value: '1-9', help: 'gzip level of request bodies (default 1: fastest; 9 for a slow link)' },
  help: { kind: 'boolean', help: 'show this help (also -h)' },
};

const USAGE = `Usage: hogtail import [FILE...|-] [options]

Sends NDJSON, CSV (with a header row) or a JSON array of events as a historical migration.
Gzipped files are read transparently; with no FILE (or -) events are read from stdin.
Every row needs an event name, a distinct id and a timestamp.

JSON and NDJSON rows: a \`uuid\` field holding a UUID becomes the event's uuid (so re-importing the
same export repeats uuids the server already has); without one, a uuid is derived from the input and
the row number. Top-level fields other than event, distinct_id, timestamp, uuid, properties and those
--map reads become properties (with a properties object: added unless it already has that name).

CSV cells are strings (an empty cell is left out), except columns named or mapped to $set, $set_once,
$group_set or $groups, which must hold JSON objects.`;

const NOTES = `--resume continues from the last row the server acknowledged, which needs the input exactly as it
was: an edited, appended or moved input is refused (exit 2), because its rows would be sent again
under different uuids and migrated events cannot be deleted.

Exit codes:
  0    done (rejected rows are listed in the rejects file, not an error)
  1    the import failed: the server refused or was unreachable, the input is broken, or a file could not be written (disk full)
  2    wrong command line, or refused before sending (input changed since its checkpoint, CSV column missing)
  130  interrupted (Ctrl-C); run the same command with --resume`;

function oneOf<T extends string>(name: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value))
    throw new UsageError(`--${name} must be one of ${allowed.join(', ')}; got ${JSON.stringify(value)}`);
  return value as T;
}

function compressionLevel(flags: ParsedFlags): number {
  const level = positiveInteger(flags, 'compression-level', 1);
  if (level > 9) throw new UsageError(`--compression-level must be 1 to 9; got ${level}`);
  return level;
}

export async function runImportCommand(args: string[], io: CommandIo): Promise<number> {
  const out = (text: string) => void io.stdout.write(text);
  const err = (text: string) => void io.stderr.write(text);
  const letGo = holdProcessOpen();
  try {
    const flags = parseFlags(args, FLAGS);
    if (flags.booleans.has('help')) {
      out(helpText(USAGE, FLAGS, NOTES));
      return 0;
    }
    const dryRun = flags.booleans.has('dry-run');
    const importIo: ImportIo = {
      stdin: io.stdin,
      stdout: out,
      stderr: err,
      isTTY: io.isTTY,
      cwd: io.cwd ?? process.cwd(),
      onInterrupt: io.onInterrupt ?? defaultInterrupt,
      exitNow: (code) => process.exit(code),
    };
    return await runImport(
      {
        files: flags.positionals.length > 0 ? flags.positionals : ['-'],
        format: oneOf<InputFormat>('format', flags.strings.get('format'), INPUT_FORMATS),
        mapping: parseMapping(flags.lists.get('map') ?? []),
        timestampFormat: oneOf<TimestampFormat>('timestamp-format', flags.strings.get('timestamp-format'), TIMESTAMP_FORMATS) ?? 'iso',
        dryRun,
        resume: flags.booleans.has('resume'),
        rejectsPath: flags.strings.get('rejects'),
        checkpointPath: flags.strings.get('checkpoint'),
        sourceId: flags.strings.get('source-id'),
        batchSize: positiveInteger(flags, 'batch-size', 1_000),
        chunkRows: positiveInteger(flags, 'checkpoint-rows', 5_000),
        retries: positiveInteger(flags, 'retries', 8),
        timeoutMs: positiveInteger(flags, 'timeout', 60_000),
        compressionLevel: compressionLevel(flags),
        // A dry run needs no key: validating a file before you have one is the point.
        connection: dryRun ? undefined : resolveConnection(flags, io.env),
      },
      importIo,
    );
  } catch (error) {
    if (error instanceof UsageError) {
      err(`hogtail import: ${error.message}\nRun 'hogtail import --help' for the options.\n`);
      return EXIT_USAGE;
    }
    err(`hogtail import: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    letGo();
  }
}
