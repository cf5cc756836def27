/**
 * What the file-backed queue reports. None of these stops capturing except 'locked', which the
 * constructor throws: two writers on one journal would each resend or forget the other's events.
 */
import { HogtailError } from '../../core/errors';
import { textOf } from '../../core/text-of';

export type PersistenceProblem =
  | 'locked' // another live process (or client) holds the directory
  | 'unwritable' // the directory or journal cannot be written: events are kept in memory only
  | 'unsupported' // the journal was written in a format this version cannot read; left untouched
  | 'corrupt' // whole records whose checksum failed were skipped
  | 'torn' // the journal ended in a partial record (a write cut short by a crash)
  | 'retained'; // undelivered at shutdown, kept in the journal for the next run (not a loss)

export class PersistenceError extends HogtailError {
  override name = 'PersistenceError' as const;
  readonly reason: PersistenceProblem;
  /** The persistence directory. */
  readonly path: string;
  /** For 'retained': the events kept for the next run. */
  readonly uuids: string[];
  constructor(message: string, reason: PersistenceProblem, path: string, uuids: string[] = [], cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.reason = reason;
    this.path = path;
    this.uuids = uuids;
  }
}

/** Node's errno code, for messages and decisions. */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

export function describeCause(error: unknown): string {
  const code = errorCode(error);
  const message = error instanceof Error ? error.message : textOf(error);
  return code !== undefined && !message.startsWith(code) ? `${code}: ${message}` : message;
}
