/**
 * The reports the file persistence makes, worded once: what a replayed journal held that could not
 * be used, a disk that stopped taking writes, and what a shutdown left in the journal.
 */
import { describeCause, PersistenceError } from './errors';
import type { parseJournal } from './journal-format';

/** Problems found replaying a journal; `unsupported` means it must not be touched at all. */
export function replayProblems(
  replay: ReturnType<typeof parseJournal>,
  journalPath: string,
  dir: string,
  version: number,
): PersistenceError[] {
  if (replay.version !== undefined && replay.version !== version) {
    const message = `${journalPath} was written in journal format ${replay.version}, which this version of hogtail cannot read. It was left untouched; events are kept in memory only. Use a newer hogtail or another path.`;
    return [new PersistenceError(message, 'unsupported', dir)];
  }
  const problems: PersistenceError[] = [];
  if (replay.corrupt > 0) {
    const message = `${replay.corrupt} damaged record(s) in ${journalPath} (the first at byte ${replay.firstCorruptOffset}) were skipped; any events in them cannot be recovered. Every intact event is sent.`;
    problems.push(new PersistenceError(message, 'corrupt', dir));
  }
  if (replay.tornBytes > 0) {
    const message = `${journalPath} ended in a partial record of ${replay.tornBytes} bytes, a write cut short by a crash; it was discarded. Every whole record is sent.`;
    problems.push(new PersistenceError(message, 'torn', dir));
  }
  return problems;
}

export function unwritableError(error: unknown, doing: string, dir: string): PersistenceError {
  const message = `could not ${doing} in ${dir} (${describeCause(error)}). Events captured from now on are kept in memory only and are lost if the process dies; capturing continues. Events already in the journal may be sent again by the next run.`;
  return new PersistenceError(message, 'unwritable', dir, [], error);
}

export function retainedError(kept: string[], journalPath: string, dir: string): PersistenceError {
  const message = `${kept.length} event(s) were not delivered before shutdown; they stay in ${journalPath}, and the next client started with this path sends them first. Nothing was lost.`;
  return new PersistenceError(message, 'retained', dir, kept);
}
