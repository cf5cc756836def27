/**
 * One import, start to finish: open the sources, pick up the checkpoint, read rows in file order,
 * reject or send each, move the checkpoint as chunks are acknowledged, and stop cleanly on Ctrl-C,
 * a broken input or a server that will not take the data.
 *
 * Rows are numbered per source from 0, rejected ones included, so a row's number (and with it its
 * uuid) never depends on which other rows were valid, and --resume can skip by number.
 */
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { readCheckpoint, removeCheckpoint, writeCheckpoint, type Checkpoint } from './checkpoint';
import { describeCheckpointsIn } from './checkpoint-list';
import { changedInputMessage, describeSourceChange } from './checkpoint-match';
import { missingCsvColumn } from './csv-columns';
import type { Connection } from './connection';
import { createDelivery, type Chunk, type Delivery } from './delivery';
import { createInputDigest, EMPTY_DIGEST } from './input-digest';
import { createReader, createSniffingReader, formatFromName, type InputFormat } from './input-format';
import type { Mapping } from './mapping';
import { openSource, type OpenedSource } from './open-source';
import { startProgress } from './progress';
import type { RecordSink } from './record-sink';
import { openRejectsFile, type RejectEntry, type RejectsFile } from './rejects-file';
import { createRowMapper } from './row-to-event';
import { createRowUuids } from './row-uuid';
import { formatSummary, type ImportSummary } from './summary';
import type { TimestampFormat } from './timestamp';

export interface ImportOptions {
  /** Paths; `-` is stdin. */
  files: string[];
  format: InputFormat | undefined;
  mapping: Mapping;
  timestampFormat: TimestampFormat;
  dryRun: boolean;
  resume: boolean;
  rejectsPath: string | undefined;
  checkpointPath: string | undefined;
  sourceId: string | undefined;
  /** Events per request. */
  batchSize: number;
  /** Rows per acknowledged chunk (how often the checkpoint can move). */
  chunkRows: number;
  retries: number;
  /** Per request, in ms. */
  timeoutMs: number;
  /** gzip level for request bodies (1 fastest, 9 smallest). */
  compressionLevel: number;
  /** Undefined only for a dry run. */
  connection: Connection | undefined;
}

export interface ImportIo {
  stdin: NodeJS.ReadableStream;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  isTTY: boolean;
  cwd: string;
  /** Subscribes to Ctrl-C (and SIGTERM); returns an unsubscribe. */
  onInterrupt: (handler: () => void) => () => void;
  /** Leaves at once, on a second Ctrl-C. */
  exitNow: (code: number) => void;
}

/** Open chunks beyond these wait: bounds memory whatever the file size. */
const MAX_OPEN_CHUNKS = 4;
const MAX_OPEN_CHARS = 32 * 1024 * 1024;
/** The checkpoint is rewritten at most this often (and always at the end). */
const CHECKPOINT_EVERY_MS = 250;
const SHOWN_REJECTS = 5;

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;
export const EXIT_INTERRUPTED = 130;

class StopImport extends Error {
  override name: string = 'StopImport';
  constructor(message: string, readonly code: number) {
    super(message);
  }
}

/** The input is not what the checkpoint describes: leave at once, the checkpoint untouched. */
class InputChanged extends StopImport {
  override name = 'InputChanged';
}

export async function runImport(options: ImportOptions, io: ImportIo): Promise<number> {
  const started = Date.now();
  const sources: OpenedSource[] = [];
  // Run on every exit path, an unexpected error included, so no signal handler or timer outlives the command.
  const cleanups: Array<() => unknown> = [];
  try {
    return await importSources(options, io, sources, cleanups, started);
  } catch (error) {
    if (error instanceof StopImport) {
      io.stderr(`hogtail import: ${error.message}\n`);
      return error.code;
    }
    throw error;
  } finally {
    for (const source of sources) source.close();
    for (const cleanup of cleanups) await Promise.resolve().then(cleanup).catch(() => {});
  }
}

async function importSources(
  options: ImportOptions,
  io: ImportIo,
  sources: OpenedSource[],
  cleanups: Array<() => unknown>,
  started: number,
): Promise<number> {
  const { dryRun } = options;
  if (options.files.filter((file) => file === '-').length > 1) throw new StopImport('stdin (-) can be read only once', EXIT_USAGE);
  if (options.files.includes('-') && (io.stdin as { isTTY?: boolean }).isTTY === true) {
    io.stderr('hogtail import: reading events from stdin (end with Ctrl-D; pass FILE to read a file)\n');
  }
  for (const [index, file] of options.files.entries()) {
    const sourceId = options.sourceId === undefined || options.files.length === 1 ? options.sourceId : `${options.sourceId}#${index}`;
    try {
      sources.push(await openSource(file, io.stdin, sourceId, io.cwd));
    } catch (error) {
      throw new StopImport(`cannot read ${file}: ${(error as Error).message}`, EXIT_USAGE);
    }
  }

  // Named by where the input lives, not by its content: see open-source.ts on location.
  const importId = createHash('sha256').update(sources.map((s) => s.location).join('\n')).digest('hex').slice(0, 12);
  const checkpointPath = dryRun ? undefined : resolve(io.cwd, options.checkpointPath ?? `hogtail-import-${importId}.checkpoint.json`);
  const previous = checkpointPath === undefined ? undefined : await readCheckpoint(checkpointPath);
  if (previous !== undefined) {
    if (previous.sources.length !== sources.length) {
      throw new StopImport(
        `the checkpoint ${checkpointPath} is for ${previous.sources.length} input(s): ${previous.sources.map((s) => s.path ?? s.label).join(', ')}; this command reads ${sources.length}. Give the same inputs in the same order, pass another --checkpoint, or delete it to import as new data.`,
        EXIT_USAGE,
      );
    }
    for (const [i, source] of sources.entries()) {
      const change = describeSourceChange(previous.sources[i]!, source);
      if (change !== undefined) throw new StopImport(changedInputMessage(source.label, source.path !== undefined, change, checkpointPath!), EXIT_USAGE);
    }
    // A checkpoint that acknowledged nothing (a run that failed before its first answer) is safe to
    // continue without --resume: the input is unchanged, so its rows get the uuids they had.
    const acknowledgedAny = previous.sources.some((s) => s.rows > 0 || s.complete);
    if (!options.resume && acknowledgedAny) {
      throw new StopImport(
        `this input was imported before (${previous.sent} rows acknowledged, checkpoint ${checkpointPath}). Pass --resume to continue where it stopped, or delete the checkpoint to send everything again.`,
        EXIT_USAGE,
      );
    }
    if (previous.sources.every((s) => s.complete)) {
      io.stdout(`nothing to do: this input was imported completely (${previous.sent} sent, ${previous.rejected} rejected; checkpoint ${checkpointPath})\n`);
      return EXIT_OK;
    }
  } else if (checkpointPath !== undefined && options.resume) {
    // Starting over here could re-send rows under new uuids (the input may have changed or moved).
    throw new StopImport(
      `--resume: there is no checkpoint ${checkpointPath} for this input, so nothing was sent.\n${await describeCheckpointsIn(io.cwd)}\n` +
        'Pass the one that belongs to this input with --checkpoint FILE (the input must be unchanged); or, if this input was never imported, run without --resume.',
      EXIT_USAGE,
    );
  }

  const state: Checkpoint = previous ?? {
    version: 1,
    sources: sources.map((s) => ({
      label: s.label,
      identity: s.identity,
      rows: 0,
      complete: false,
      path: s.path ?? null,
      sizeBytes: s.sizeBytes ?? null,
      digest: EMPTY_DIGEST,
    })),
    rejects: null,
    sent: 0,
    rejected: 0,
    updatedAt: new Date().toISOString(),
  };
  const previousSent = state.sent;

  // A dry run writes rejects only where asked; a real run always keeps them (nothing lost silently).
  let rejects: RejectsFile | undefined;
  const rejectsPath = options.rejectsPath ?? previous?.rejects?.path ?? (dryRun ? undefined : `hogtail-import-${importId}.rejects.ndjson`);
  if (rejectsPath !== undefined) {
    const keep = previous === undefined ? undefined : (previous.rejects?.bytes ?? 0);
    rejects = await openRejectsFile(resolve(io.cwd, rejectsPath), keep, options.rejectsPath !== undefined);
    const opened = rejects;
    cleanups.push(() => opened.close());
  }
  const firstRejects: string[] = [];

  const window: Chunk[] = [];
  /** The chunk rows are being added to; its batches may already be answered. */
  let openChunk: Chunk | undefined;
  let delivery: Delivery | undefined;
  if (!dryRun) {
    delivery = createDelivery({
      connection: options.connection!,
      batchSize: options.batchSize,
      retries: options.retries,
      timeoutMs: options.timeoutMs,
      compressionLevel: options.compressionLevel,
      openChunks: () => (openChunk === undefined ? window : [...window, openChunk]),
    });
    const client = delivery;
    cleanups.push(() => client.shutdown(0));
  }

  let rowsRead = 0;
  let skippedOnResume = 0;
  let valid = 0;
  let rejectedThisRun = 0;
  let sentThisRun = 0;
  let bytesDone = 0;
  let currentSource: OpenedSource | undefined;
  let stopping = false;
  /** Why reading stopped: a broken input (exit 1) or one the command line does not fit (exit 2). */
  let inputProblem: StopImport | undefined;
  let lastCheckpointAt = 0;
  const totalBytes = sources.every((s) => s.sizeBytes !== undefined) ? sources.reduce((sum, s) => sum + s.sizeBytes!, 0) : undefined;

  const offInterrupt = io.onInterrupt(() => {
    if (stopping) {
      io.stderr('\nhogtail import: stopped at once; the checkpoint still holds the last acknowledged row. Run again with --resume.\n');
      io.exitNow(EXIT_INTERRUPTED);
      return;
    }
    stopping = true;
    io.stderr('\nhogtail import: stopping: sending what was read, then saving the checkpoint (Ctrl-C again to quit now)\n');
  });

  cleanups.push(offInterrupt);

  const progress = startProgress({
    write: io.stderr,
    isTTY: io.isTTY,
    read: () => ({
      rows: rowsRead,
      sent: dryRun ? valid : sentThisRun,
      rejected: rejectedThisRun,
      bytes: bytesDone + (currentSource?.bytesRead() ?? 0),
      totalBytes,
    }),
  });

  async function saveCheckpoint(force: boolean): Promise<void> {
    if (checkpointPath === undefined) return;
    const now = Date.now();
    if (!force && now - lastCheckpointAt < CHECKPOINT_EVERY_MS) return;
    lastCheckpointAt = now;
    state.rejects = rejects === undefined ? null : { path: rejects.path, bytes: rejects.bytes };
    state.updatedAt = new Date(now).toISOString();
    await writeCheckpoint(checkpointPath, state);
  }

  /** Waits for the oldest open chunk; false when delivery failed (the checkpoint stays put). */
  async function settleOldest(): Promise<boolean> {
    const chunk = window[0];
    if (chunk === undefined) return true;
    if (delivery !== undefined && !(await delivery.acknowledge(chunk))) return false;
    window.shift();
    if (rejects !== undefined) await rejects.append(chunk.rejects);
    rejectedThisRun += chunk.rejects.length;
    sentThisRun += chunk.captured - chunk.refusedByServer;
    for (const reject of chunk.rejects) {
      if (firstRejects.length < SHOWN_REJECTS) firstRejects.push(`${reject.source}:${reject.line}: ${reject.reason}`);
    }
    const progressOfSource = state.sources[chunk.sourceIndex]!;
    progressOfSource.rows = chunk.endRow;
    progressOfSource.complete = chunk.complete;
    progressOfSource.digest = chunk.digest;
    state.sent += chunk.captured - chunk.refusedByServer;
    state.rejected += chunk.rejects.length;
    await saveCheckpoint(chunk.complete);
    return true;
  }

  cleanups.push(() => progress.stop());

  // Before the first request: a crash at any moment after it leaves a checkpoint that records which
  // input this was, so a changed input is refused rather than sent again under new uuids.
  if (previous === undefined) {
    await saveCheckpoint(true);
    // Not the start of the quiet period: the first acknowledged chunk is recorded at once.
    lastCheckpointAt = 0;
  }

  const openChars = () => window.reduce((sum, chunk) => sum + chunk.chars, 0);

  for (let index = 0; index < sources.length && !stopping && inputProblem === undefined && delivery?.failure === undefined; index++) {
    const source = sources[index]!;
    const sourceState = state.sources[index]!;
    if (sourceState.complete) {
      skippedOnResume += sourceState.rows;
      bytesDone += source.sizeBytes ?? 0;
      source.close();
      continue;
    }
    currentSource = source;
    const skip = sourceState.rows;
    const uuids = createRowUuids(source.identity);
    const digest = createInputDigest();
    const inputChanged = (detail: string) =>
      new InputChanged(changedInputMessage(source.label, source.path !== undefined, detail, checkpointPath!), EXIT_USAGE);
    const declared = options.format ?? formatFromName(source.label);
    let fromCsv = declared === 'csv';
    const mapRowFor = { csv: createRowMapper(options.mapping, options.timestampFormat, true), other: createRowMapper(options.mapping, options.timestampFormat, false) };
    let row = 0;

    const newChunk = (): Chunk => ({
      sourceIndex: index,
      sourceLabel: source.label,
      uuids,
      startRow: Math.max(row, skip),
      endRow: Math.max(row, skip),
      complete: false,
      lines: [],
      ownUuids: undefined,
      rejects: [],
      captured: 0,
      refusedByServer: 0,
      chars: 0,
      capturedThrough: 0,
      flushed: undefined,
      digest: '',
    });
    let chunk = newChunk();
    openChunk = chunk;

    const closeChunk = (complete: boolean): void => {
      // Stopped while still skipping acknowledged rows: the checkpoint already says all there is.
      if (row < skip) return;
      chunk.endRow = row;
      chunk.complete = complete;
      chunk.digest = digest.through(reader.recordEnd());
      delivery?.close(chunk);
      window.push(chunk);
      chunk = newChunk();
      openChunk = chunk;
    };

    const reject = (line: number, reason: string, entry: Partial<RejectEntry>): void => {
      chunk.rejects.push({ source: source.label, line, row: row - 1, reason, ...entry });
    };

    const handle = (line: number, value: unknown, parseError: string | undefined, raw: string | undefined): void => {
      row++;
      rowsRead++;
      if (row <= skip) {
        skippedOnResume++;
        if (row === skip && sourceState.digest !== undefined && digest.through(reader.recordEnd()) !== sourceState.digest) {
          throw inputChanged(`its first ${skip} rows differ from the ones acknowledged`);
        }
        return;
      }
      chunk.lines.push(line);
      if (parseError !== undefined) {
        reject(line, parseError, { raw });
      } else {
        const mapped = (fromCsv ? mapRowFor.csv : mapRowFor.other)(value);
        if (!mapped.ok) reject(line, mapped.reason, { record: value });
        else if (delivery === undefined) valid++;
        else {
          const own = mapped.value.uuid;
          if (own !== undefined) (chunk.ownUuids ??= new Map()).set(own, row - 1);
          const refusal = delivery.capture(mapped.value, own ?? uuids.uuidOf(row - 1));
          if (refusal !== undefined) reject(line, refusal, { record: value });
          else chunk.captured++;
        }
      }
      if (chunk.lines.length >= options.chunkRows) closeChunk(false);
    };

    const sink: RecordSink = {
      record: (line, value) => handle(line, value, undefined, undefined),
      invalid: (line, reason, raw) => handle(line, undefined, reason, raw),
      header: (columns) => {
        const missing = missingCsvColumn(options.mapping, columns, source.label);
        if (missing !== undefined) throw new StopImport(missing, EXIT_USAGE);
      },
    };
    const reader =
      declared !== undefined
        ? createReader(declared, sink)
        : createSniffingReader(sink, (format) => {
            fromCsv = format === 'csv';
          });

    let finished = false;
    try {
      for await (const text of source.text) {
        chunk.chars += text.length;
        digest.add(text);
        reader.write(text);
        digest.settle(reader.recordEnd());
        while (window.length > MAX_OPEN_CHUNKS || openChars() > MAX_OPEN_CHARS) {
          if (!(await settleOldest())) break;
        }
        if (stopping || delivery?.failure !== undefined) break;
      }
      if (!stopping && delivery?.failure === undefined) {
        reader.end();
        finished = true;
        if (row < skip) throw inputChanged(`it now ends after ${row} rows; the checkpoint had acknowledged ${skip}`);
      }
    } catch (error) {
      if (error instanceof InputChanged) throw error;
      inputProblem = error instanceof StopImport ? error : new StopImport(`${source.label}: ${(error as Error).message}`, EXIT_FAILED);
    }
    if (delivery?.failure === undefined) closeChunk(finished);
    bytesDone += source.sizeBytes ?? source.bytesRead();
    currentSource = undefined;
    openChunk = undefined;
    source.close();
  }

  // A command line that does not fit the input, found before a row was sent: nothing happened, so
  // leave no trace (a fresh checkpoint would make the corrected command look like a re-import).
  if (inputProblem?.code === EXIT_USAGE && (delivery?.captured ?? 0) === 0) {
    if (previous === undefined && checkpointPath !== undefined) await removeCheckpoint(checkpointPath);
    throw inputProblem;
  }

  // Whatever was read is delivered and acknowledged before the checkpoint is saved for good.
  while (window.length > 0 && delivery?.failure === undefined) {
    if (!(await settleOldest())) break;
  }
  offInterrupt();
  progress.stop();
  await saveCheckpoint(true);
  await rejects?.close();
  await delivery?.shutdown(delivery.failure === undefined ? 10_000 : 0);

  const unmatched = delivery?.unmatchedRefusals ?? [];
  const unmatchedProblem =
    unmatched.length === 0
      ? undefined
      : `the server refused ${unmatched.length} event(s) that match no row still waiting for an answer, so they are not in the rejects file (uuids: ${unmatched.slice(0, 5).join(', ')}${unmatched.length > 5 ? ', …' : ''}); please report this`;
  const failure = delivery?.failure ?? inputProblem?.message ?? unmatchedProblem;
  const summary: ImportSummary = {
    outcome: dryRun ? 'dry-run' : failure !== undefined ? 'failed' : stopping ? 'interrupted' : 'complete',
    sent: sentThisRun,
    valid,
    rejected: rejectedThisRun,
    skippedOnResume,
    rowsRead,
    durationMs: Date.now() - started,
    rejectsPath: rejects !== undefined && rejects.count + (previous?.rejected ?? 0) > 0 ? rejects.path : undefined,
    checkpointPath,
    previousSent,
    firstRejects,
  };
  io.stdout(formatSummary(summary));
  if (failure !== undefined) {
    io.stderr(`hogtail import: ${failure}\n`);
    if (checkpointPath !== undefined) io.stderr('Fix the problem, then run the same command with --resume to continue from the last acknowledged row.\n');
    return delivery?.failure === undefined && inputProblem !== undefined ? inputProblem.code : EXIT_FAILED;
  }
  if (stopping) {
    io.stderr('hogtail import: interrupted. Run the same command with --resume to continue from the last acknowledged row.\n');
    return EXIT_INTERRUPTED;
  }
  return EXIT_OK;
}
