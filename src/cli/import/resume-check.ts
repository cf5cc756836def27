/**
 * Before the first request: find this input's checkpoint, and decide whether the run may go on.
 * A checkpoint is found by where the input lives (open-source.ts on location), so an edited input
 * still finds it and the change is refused (checkpoint-match.ts) instead of being sent again under
 * new uuids. Without a checkpoint, a fresh one is described here; it is written before any request.
 */
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { readCheckpoint, type Checkpoint } from './checkpoint';
import { describeCheckpointsIn } from './checkpoint-list';
import { changedInputMessage, describeSourceChange } from './checkpoint-match';
import { EMPTY_DIGEST } from './input-digest';
import type { OpenedSource } from './open-source';
import { EXIT_USAGE, StopImport } from './stop-import';

export interface ResumeDecision {
  /** Names the default checkpoint and rejects files. */
  importId: string;
  /** Undefined for a dry run, which keeps no checkpoint. */
  checkpointPath: string | undefined;
  /** The earlier run's checkpoint, when there is one. */
  previous: Checkpoint | undefined;
  /** What this run starts from and updates: the previous checkpoint or a fresh one. */
  state: Checkpoint;
  /** Everything was imported before: print `message`, send nothing. */
  nothingToDo: string | undefined;
}

export interface ResumeRequest {
  sources: readonly OpenedSource[];
  dryRun: boolean;
  resume: boolean;
  checkpointPath: string | undefined;
  cwd: string;
}

export async function checkResume(request: ResumeRequest): Promise<ResumeDecision> {
  const { sources, cwd } = request;
  const importId = createHash('sha256')
    .update(sources.map((s) => s.location).join('\n'))
    .digest('hex')
    .slice(0, 12);
  const checkpointPath = request.dryRun ? undefined : resolve(cwd, request.checkpointPath ?? `hogtail-import-${importId}.checkpoint.json`);
  const previous = checkpointPath === undefined ? undefined : await readCheckpoint(checkpointPath);
  let nothingToDo: string | undefined;
  if (previous !== undefined) {
    nothingToDo = checkPrevious(previous, sources, request.resume, checkpointPath!);
  } else if (checkpointPath !== undefined && request.resume) {
    // Starting over here could re-send rows under new uuids (the input may have changed or moved).
    throw new StopImport(
      `--resume: there is no checkpoint ${checkpointPath} for this input, so nothing was sent.\n${await describeCheckpointsIn(cwd)}\n` +
        'Pass the one that belongs to this input with --checkpoint FILE (the input must be unchanged); or, if this input was never imported, run without --resume.',
      EXIT_USAGE,
    );
  }
  return { importId, checkpointPath, previous, state: previous ?? freshCheckpoint(sources), nothingToDo };
}

/** Throws when the earlier run's checkpoint forbids this one; a message when nothing is left to send. */
function checkPrevious(
  previous: Checkpoint,
  sources: readonly OpenedSource[],
  resume: boolean,
  checkpointPath: string,
): string | undefined {
  if (previous.sources.length !== sources.length) {
    throw new StopImport(
      `the checkpoint ${checkpointPath} is for ${previous.sources.length} input(s): ${previous.sources.map((s) => s.path ?? s.label).join(', ')}; this command reads ${sources.length}. Give the same inputs in the same order, pass another --checkpoint, or delete it to import as new data.`,
      EXIT_USAGE,
    );
  }
  for (const [i, source] of sources.entries()) {
    const change = describeSourceChange(previous.sources[i]!, source);
    if (change !== undefined)
      throw new StopImport(changedInputMessage(source.label, source.path !== undefined, change, checkpointPath, previous.sent), EXIT_USAGE);
  }
  // A checkpoint that acknowledged nothing (a run that failed before its first answer) is safe to
  // continue without --resume: the input is unchanged, so its rows get the uuids they had.
  const acknowledgedAny = previous.sources.some((s) => s.rows > 0 || s.complete);
  if (!resume && acknowledgedAny) {
    throw new StopImport(
      `this input was imported before (${previous.sent} rows acknowledged, checkpoint ${checkpointPath}). Pass --resume to continue where it stopped, or delete the checkpoint to send everything again.`,
      EXIT_USAGE,
    );
  }
  if (previous.sources.every((s) => s.complete)) {
    return `nothing to do: this input was imported completely (${previous.sent} sent, ${previous.rejected} rejected; checkpoint ${checkpointPath})\n`;
  }
  return undefined;
}

function freshCheckpoint(sources: readonly OpenedSource[]): Checkpoint {
  return {
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
}
