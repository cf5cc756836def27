/**
 * What a client's error report means to a command that must print an outcome and pick an exit
 * code, read from the error's class and fields, never from its name or its text (which are free to
 * change): a refusal at capture, a failed attempt that will be retried, or events given up.
 */
import { DroppedEventsError, InvalidEventError, TransportError, type DropReason, type HogtailError } from '../../core/errors';

export type ClientOutcome =
  /** capture() refused the event: it never entered the queue. */
  | { kind: 'refused'; message: string }
  /** A request failed and will be retried; `problem` is what went wrong, without the retry plan. */
  | { kind: 'retrying'; problem: string; status: number | undefined }
  /** Queued events were given up. */
  | { kind: 'dropped'; reason: DropReason; status: number | undefined; uuids: readonly string[]; message: string }
  /** Anything else the client reports (a warning, a flags problem). */
  | { kind: 'other'; message: string };

export function outcomeOf(error: HogtailError): ClientOutcome {
  if (error instanceof TransportError) return { kind: 'retrying', problem: error.problem, status: error.status };
  if (error instanceof DroppedEventsError)
    return { kind: 'dropped', reason: error.reason, status: error.status, uuids: error.uuids, message: error.message };
  if (error instanceof InvalidEventError) return { kind: 'refused', message: error.message };
  return { kind: 'other', message: error.message };
}
