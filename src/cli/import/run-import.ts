/**
 * One import, start to finish: open the sources, check the checkpoint (resume-check.ts), read each
 * source in order (read-source.ts) while the window settles acknowledged chunks and moves the
 * checkpoint (chunk-window.ts), and stop cleanly on Ctrl-C, a broken input or a server that will
 * not take the data.
 */
import { removeCheckpoint } from './checkpoint';
import type { ImportIo, ImportOptions } from './import-options';
import { finishRun, startRun, type ImportRun } from './import-run';
import { openSource, type OpenedSource } from './open-source';
import { startProgress } from './progress';
import { BROKEN_INPUT_ADVICE, readSource } from './read-source';
import { checkResume } from './resume-check';
import { EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, StopImport } from './stop-import';
import { formatSummary } from './summary';

export type { ImportIo, ImportOptions } from './import-options';
export { EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE } from './stop-import';

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
    for (const cleanup of cleanups)
      await Promise.resolve()
        .then(cleanup)
        .catch(() => {});
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

async function importSources(
  options: ImportOptions,
  io: ImportIo,
  sources: OpenedSource[],
  cleanups: Array<() => unknown>,
  started: number,
): Promise<number> {
  await openSources(options, io, sources);
  const decision = await checkResume({
    sources,
    dryRun: options.dryRun,
    resume: options.resume,
    checkpointPath: options.checkpointPath,
    cwd: io.cwd,
  });
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
        previouslySent: decision.previous?.sent ?? 0,
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
  const writeProblem = await finishRun(run);
  offInterrupt();
  progress.stop();
  return report(options, io, run, started, inputProblem ?? writeProblem);
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
