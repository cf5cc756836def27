/**
 * What one import holds while it reads and sends: the delivery (the Node client), the chunk window,
 * the rejects file and the checkpoint writer, and how an acknowledged chunk moves them (settleChunk).
 * Set up by startRun, wound down by finishRun, whatever happened in between.
 */
import { resolve } from 'node:path';
import { createCheckpointWriter, type CheckpointWriter } from './checkpoint-writer';
import { createChunkWindow, type ChunkWindow } from './chunk-window';
import { createDelivery, type Chunk, type Delivery } from './delivery';
import type { ImportIo, ImportOptions } from './import-options';
import type { ImportCounters } from './read-source';
import { openRejectsFile, type RejectsFile } from './rejects-file';
import type { ResumeDecision } from './resume-check';
import { EXIT_FAILED, StopImport } from './stop-import';

const SHOWN_REJECTS = 5;
const FILE_ADVICE = 'Free some space (or fix the path), then run the same command with --resume.';

/** How much of the rejects file belongs to the rows the checkpoint counts. */
function rejectsMark(rejects: RejectsFile | undefined): { path: string; bytes: number } | null {
  return rejects === undefined ? null : { path: rejects.path, bytes: rejects.bytes };
}

/** Everything one run holds while it reads and sends. */
export interface ImportRun {
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

export async function startRun(
  options: ImportOptions,
  io: ImportIo,
  decision: ResumeDecision,
  cleanups: Array<() => unknown>,
): Promise<ImportRun> {
  const { dryRun } = options;
  const { previous, checkpointPath, state } = decision;
  // A dry run writes rejects only where asked; a real run always keeps them (nothing lost silently).
  let rejects: RejectsFile | undefined;
  const rejectsPath =
    options.rejectsPath ?? previous?.rejects?.path ?? (dryRun ? undefined : `hogtail-import-${decision.importId}.rejects.ndjson`);
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
          state.updatedAt = new Date().toISOString();
          return state;
        });
  state.rejects = rejectsMark(rejects);

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
  // With the rows, not when a write starts: a write between the append and these lines would
  // record this chunk's rejects without its rows, and a resume would list them twice.
  decision.state.rejects = rejectsMark(run.rejects);
  try {
    run.checkpoint?.save();
  } catch (error) {
    throw new StopImport((error as Error).message, EXIT_FAILED, FILE_ADVICE);
  }
}

/** Waits for the window, saves the checkpoint, closes the client; a problem writing files, if any. */
export async function finishRun(run: ImportRun): Promise<StopImport | undefined> {
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
