/**
 * What "clear" left behind, kept in `state.json` beside the day files so a restart shows what the page
 * showed: events up to `clearedThrough` stay on disk (unless the files were deleted) but are hidden,
 * and `seqBase` counts events whose files were deleted so sequence numbers never go back.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isPlainObject } from '../ingest/json-shape';

export interface ClearState {
  /** Events with a seq up to this are hidden. */
  clearedThrough: number;
  /** Events counted before the first one in the files (deleted by a clear). */
  seqBase: number;
  /** When the last clear happened, ISO 8601; rejections before it are hidden. */
  clearedAt: string | null;
}

const FILE = 'state.json';

export function readClearState(dataDir: string): ClearState {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(join(dataDir, FILE), 'utf8'));
  } catch {
    return { clearedThrough: 0, seqBase: 0, clearedAt: null };
  }
  const number = (value: unknown): number => (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0);
  if (!isPlainObject(parsed)) return { clearedThrough: 0, seqBase: 0, clearedAt: null };
  return {
    clearedThrough: number(parsed.clearedThrough),
    seqBase: number(parsed.seqBase),
    clearedAt: typeof parsed.clearedAt === 'string' ? parsed.clearedAt : null,
  };
}

/** Written whole through a temporary file, so a crash leaves the old state or the new one. */
export function writeClearState(dataDir: string, state: ClearState): void {
  const path = join(dataDir, FILE);
  writeFileSync(`${path}.tmp`, `${JSON.stringify(state)}\n`);
  renameSync(`${path}.tmp`, path);
}
