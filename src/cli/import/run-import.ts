/**
 * One import, start to finish: open the sources, check the checkpoint (resume-check.ts), read each
 * source in order (read-source.ts) while the window settles acknowledged chunks and moves the
 * checkpoint (chunk-window.ts), and stop cleanly on Ctrl-C, a broken input or a server that will
 * not take the data.
 */
import { resolve } from 'node:path';
import { removeCheckpoint } from './checkpoint';
import { createCheckpointWriter, type CheckpointWriter } from './checkpoint-writer';
import { createChunkWindow, type ChunkWindow } from './chunk-window';
import type { Connection } from '../shared/connection';
import { createDelivery, type Chunk, type Delivery } from './delivery';
import type { InputFormat } from './input-format';
import type { Mapping } from './mapping';
import { openSource, type OpenedSource } from './open-source';
import { startProgress } from './progress';
import { BROKEN_INPUT_ADVICE, readSource, type ImportCounters } from './read-source';
import { openRejectsFile, type RejectsFile } from './rejects-file';
import { checkResume, type ResumeDecision } from './resume-check';
import { EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, StopImport } from './stop-import';
import { formatSummary } from './summary';
import type { TimestampFormat } from './timestamp';

export { EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE } from './stop-import';

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
  /** Rows per chunk at most (a chunk normally closes at batchSize events). */
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

const SHOWN_REJECTS = 5;
const FILE_ADVICE = 'Free some space (or fix the path), then run the same command with --resume.';
const RESUME_ADVICE = 'Fix the problem, then run the same command with --resume to continue from the last acknowledged row.';

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

async function openSources(options: ImportOptions, io: ImportIo, sources: OpenedSource[]): Promise<void> {
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
}

/** Everything one run holds while it reads and sends. */
interface ImportRun {
  decision: ResumeDecision;
  counters: ImportCounters;
  delivery: Delivery | undefined;
  window: ChunkWindow;
  rejects: RejectsFile | undefined;
  checkpoint: CheckpointWriter | undefined;
  firstRejects: string[];
  stopping: boolean;
  /** The chunk being filled; the delivery attributes a refusal to it while it is still open. */
  openChunk: Chunk | undefined;
}

async function importSources(
  options: ImportOptions,
  io: ImportIo,
  sources: OpenedSource[],
  cleanups: Array<() => unknown>,
  started: number,
): Promise<number> {
  await openSources(options, io, sources);
  const decision = await checkResume({ sources, dryRun: options.dryRun, resume: options.resume, checkpointPath: options.checkpointPath, cwd: io.cwd });
  if (decision.nothingToDo !== undefined) {
    io.stdout(decision.nothingToDo);
    return EXIT_OK;
  }
  const run = await startRun(options, io, decision, cleanups);
  const offInterrupt = io.onInterrupt(() => {
    if (run.stopping) {
      io.stderr('\nhogtail import: stopped at once; the checkpoint still holds the last acknowledged row. Run again with --resume.\n');
      io.exitNow(EXIT_INTERRUPTED);
      return;
    }
    run.stopping = true;
    io.stderr('\nhogtail import: stopping: sending what was read, then saving the checkpoint (Ctrl-C again to quit now)\n');
  });
  cleanups.push(offInterrupt);

  let bytesDone = 0;
  let currentSource: OpenedSource | undefined;
  const totalBytes = sources.every((s) => s.sizeBytes !== undefined) ? sources.reduce((sum, s) => sum + s.sizeBytes!, 0) : undefined;
  const progress = startProgress({
    write: io.stderr,
    isTTY: io.isTTY,
    read: () => ({
      rows: run.counters.rowsRead,
      sent: options.dryRun ? run.counters.valid : run.counters.sent,
      rejected: run.counters.rejected,
      bytes: bytesDone + (currentSource?.bytesRead() ?? 0),
      totalBytes,
    }),
  });
  cleanups.push(() => progress.stop());

  // Before the first request: a crash at any moment after it leaves a checkpoint that records which
  // input this was, so a changed input is refused rather than sent again under new uuids.
  if (decision.previous === undefined) await run.checkpoint?.flush();

  let inputProblem: StopImport | undefined;
  for (const [index, source] of sources.entries()) {
    if (run.stopping || inputProblem !== undefined || run.delivery?.failure !== undefined) break;
    const progressOfSource = decision.state.sources[index]!;
    if (progressOfSource.complete) {
      run.counters.skippedOnResume += progressOfSource.rows;
    } else {
      currentSource = source;
      const outcome = await readSource({
        source,
        index,
        progress: progressOfSource,
        format: options.format,
        mapping: options.mapping,
        timestampFormat: options.timestampFormat,
        batchSize: options.batchSize,
        chunkRows: options.chunkRows,
        delivery: run.delivery,
        window: run.window,
        counters: run.counters,
        checkpointPath: decision.checkpointPath,
        stopping: () => run.stopping,
        setOpenChunk: (chunk) => (run.openChunk = chunk),
      });
      inputProblem = outcome.problem;
      currentSource = undefined;
    }
    bytesDone += source.sizeBytes ?? source.bytesRead();
    source.close();
  }

  // A command line that does not fit the input, found before a row was sent: nothing happened, so
  // leave no trace (a fresh checkpoint would make the corrected command look like a re-import).
  if (inputProblem?.code === EXIT_USAGE && (run.delivery?.captured ?? 0) === 0) {
    if (decision.previous === undefined && decision.checkpointPath !== undefined) await removeCheckpoint(decision.checkpointPath);
    throw inputProblem;
  }

  // Whatever was read is delivered and acknowledged before the checkpoint is saved for good.
  const writeProblem = await finish(run);
  offInterrupt();
  progress.stop();
  return report(options, io, run, started, inputProblem ?? writeProblem);
}

async function startRun(options: ImportOptions, io: ImportIo, decision: ResumeDecision, cleanups: Array<() => unknown>): Promise<ImportRun> {
  const { dryRun } = options;
  const { previous, checkpointPath, state } = decision;
  // A dry run writes rejects only where asked; a real run always keeps them (nothing lost silently).
  let rejects: RejectsFile | undefined;
  const rejectsPath = options.rejectsPath ?? previous?.rejects?.path ?? (dryRun ? undefined : `hogtail-import-${decision.importId}.rejects.ndjson`);
  if (rejectsPath !== undefined) {
    const keep = previous === undefined ? undefined : (previous.rejects?.bytes ?? 0);
    const opened = await openRejectsFile(resolve(io.cwd, rejectsPath), keep, options.rejectsPath !== undefined);
    rejects = opened;
    cleanups.push(() => opened.close());
  }
  const checkpoint =
    checkpointPath === undefined
      ? undefined
      : createCheckpointWriter(checkpointPath, () => {
          state.rejects = rejects === undefined ? null : { path: rejects.path, bytes: rejects.bytes };
          state.updatedAt = new Date().toISOString();
          return state;
        });

  const run: ImportRun = {
    decision,
    counters: { rowsRead: 0, skippedOnResume: 0, valid: 0, rejected: 0, sent: 0 },
    delivery: undefined,
    window: createChunkWindow({
      acknowledge: (chunk) => (run.delivery === undefined ? Promise.resolve(true) : run.delivery.acknowledge(chunk)),
      settle: (chunk) => settleChunk(run, chunk),
    }),
    rejects,
    checkpoint,
    firstRejects: [],
    stopping: false,
    openChunk: undefined,
  };
  if (!dryRun) {
    const delivery = createDelivery({
      connection: options.connection!,
      batchSize: options.batchSize,
      retries: options.retries,
      timeoutMs: options.timeoutMs,
      compressionLevel: options.compressionLevel,
      openChunks: () => (run.openChunk === undefined ? run.window.open : [...run.window.open, run.openChunk]),
    });
    run.delivery = delivery;
    cleanups.push(() => delivery.shutdown(0));
  }
  return run;
}

/** An acknowledged chunk: its rejects are written, then the checkpoint moves past it. */
async function settleChunk(run: ImportRun, chunk: Chunk): Promise<void> {
  const { counters, decision } = run;
  try {
    if (run.rejects !== undefined) await run.rejects.append(chunk.rejects);
  } catch (error) {
    throw new StopImport((error as Error).message, EXIT_FAILED, FILE_ADVICE);
  }
  const sent = chunk.captured - chunk.refusedByServer;
  counters.rejected += chunk.rejects.length;
  counters.sent += sent;
  for (const reject of chunk.rejects) {
    if (run.firstRejects.length < SHOWN_REJECTS) run.firstRejects.push(`${reject.source}:${reject.line}: ${reject.reason}`);
  }
  const progressOfSource = decision.state.sources[chunk.sourceIndex]!;
  progressOfSource.rows = chunk.endRow;
  progressOfSource.complete = chunk.complete;
  progressOfSource.digest = chunk.digest;
  decision.state.sent += sent;
  decision.state.rejected += chunk.rejects.length;
  try {
    run.checkpoint?.save();
  } catch (error) {
    throw new StopImport((error as Error).message, EXIT_FAILED, FILE_ADVICE);
  }
}

/** Waits for the window, saves the checkpoint, closes the client; a problem writing files, if any. */
async function finish(run: ImportRun): Promise<StopImport | undefined> {
  let problem: StopImport | undefined;
  const failed = (error: unknown): void => {
    problem ??= error instanceof StopImport ? error : new StopImport((error as Error).message, EXIT_FAILED, FILE_ADVICE);
  };
  if (run.delivery?.failure === undefined) await run.window.drain().catch(failed);
  // Also after a failure: no write may still be running when the command returns.
  await run.checkpoint?.flush().catch(failed);
  await run.rejects?.close().catch(failed);
  await run.delivery?.shutdown(run.delivery.failure === undefined && problem === undefined ? 10_000 : 0);
  return problem;
}

function report(options: ImportOptions, io: ImportIo, run: ImportRun, started: number, problem: StopImport | undefined): number {
  const { delivery, decision, counters } = run;
  const unmatched = delivery?.unmatchedRefusals ?? [];
  const unmatchedProblem =
    unmatched.length === 0
      ? undefined
      : `the server refused ${unmatched.length} event(s) that match no row still waiting for an answer, so they are not in the rejects file (uuids: ${unmatched.slice(0, 5).join(', ')}${unmatched.length > 5 ? ', …' : ''}); please report this`;
  const failure = delivery?.failure ?? problem?.message ?? unmatchedProblem;
  io.stdout(
    formatSummary({
      outcome: options.dryRun ? 'dry-run' : failure !== undefined ? 'failed' : run.stopping ? 'interrupted' : 'complete',
      sent: counters.sent,
      valid: counters.valid,
      rejected: counters.rejected,
      skippedOnResume: counters.skippedOnResume,
      rowsRead: counters.rowsRead,
      durationMs: Date.now() - started,
      rejectsPath: run.rejects !== undefined && run.rejects.count + (decision.previous?.rejected ?? 0) > 0 ? run.rejects.path : undefined,
      checkpointPath: decision.checkpointPath,
      previousSent: decision.previous?.sent ?? 0,
      firstRejects: run.firstRejects,
    }),
  );
  if (failure !== undefined) {
    io.stderr(`hogtail import: ${failure}\n`);
    let advice = delivery?.failure === undefined ? problem?.advice : undefined;
    if (advice === BROKEN_INPUT_ADVICE && decision.state.sent === 0) {
      advice = `Nothing was sent: correct the file, delete the checkpoint (${decision.checkpointPath}), and run the same command again.`;
    }
    if (decision.checkpointPath !== undefined) io.stderr(`${advice ?? RESUME_ADVICE}\n`);
    return delivery?.failure === undefined && problem !== undefined ? problem.code : EXIT_FAILED;
  }
  if (run.stopping) {
    io.stderr('hogtail import: interrupted. Run the same command with --resume to continue from the last acknowledged row.\n');
    return EXIT_INTERRUPTED;
  }
  return EXIT_OK;
}
