/**
 * The error family. Every problem hogtail reports is one of these, delivered through the client's
 * error hook (never thrown from capture()). `name` is a literal so callers can switch on it even
 * across bundles where `instanceof` fails.
 */

/** Why an event left the queue without a 2xx from the server. */
export type DropReason =
  | 'rate_limited' // an autocaptured exception over its type's rate (a throw loop)
  | 'invalid' // rejected at capture: bad name, distinct id, properties, timestamp or uuid
  | 'too_large' // over the per-event size limit (at capture, or a 413 for a single event)
  | 'queue_full' // evicted as the oldest when the queue hit its count or byte cap
  | 'opted_out' // captured while the user had opted out, or not sent yet when they opted out
  | 'rejected' // the server answered 4xx for a request carrying only this event, or refused the key/host
  | 'retries_exhausted' // still failing after the retries the user allowed (fetchRetryCount)
  | 'before_send' // a before_send hook returned null (counted, not reported: the app chose it)
  | 'shutdown'; // still queued when shutdown()'s deadline passed

export class HogtailError extends Error {
  override name: string = 'HogtailError';
}

/** capture() refused the event; it never entered the queue. */
export class InvalidEventError extends HogtailError {
  override name = 'InvalidEventError' as const;
  // `declare`: assigned in the constructor, so no field initialisers are emitted (bytes in the script tag).
  declare readonly reason: 'invalid' | 'too_large';
  declare readonly event: string | undefined;
  constructor(message: string, reason: 'invalid' | 'too_large', event: string | undefined) {
    super(message);
    this.reason = reason;
    this.event = event;
  }
}

/** Events that had been queued were given up. `uuids` lets a caller reconcile. */
export class DroppedEventsError extends HogtailError {
  override name = 'DroppedEventsError' as const;
  declare readonly reason: DropReason;
  declare readonly count: number;
  declare readonly uuids: string[];
  declare readonly status: number | undefined;
  constructor(message: string, reason: DropReason, uuids: string[], status?: number) {
    super(message);
    this.reason = reason;
    this.count = uuids.length;
    this.uuids = uuids;
    this.status = status;
  }
}

/** A request failed in a way that will be retried; reported so outages are visible. */
export class TransportError extends HogtailError {
  override name = 'TransportError' as const;
  /** What went wrong with this attempt (`the server answered 503: …`, `no response (…)`), without the count or the retry plan. */
  declare readonly problem: string;
  declare readonly status: number | undefined;
  declare readonly attempt: number;
  declare readonly retryInMs: number;
  constructor(message: string, problem: string, attempt: number, retryInMs: number, status?: number, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.problem = problem;
    this.status = status;
    this.attempt = attempt;
    this.retryInMs = retryInMs;
  }
}
