/** The delivery queue's options, counters and interface (the queue itself is in queue.ts). */
import type { BatchSender } from './batch-sender';
import type { RetryOptions } from './backoff';
import type { DropReason, DroppedEventsError, HogtailError, TransportError } from './errors';
import type { QueuedEvent } from './event';

/** Lets a platform keep the queue durable: told of every event added and every event settled. */
export interface QueuePersistence {
  appended(event: QueuedEvent): void;
  removed(events: readonly QueuedEvent[]): void;
  /**
   * Told what is still queued at close(); returns the events it could not keep for a later run.
   * Only those are reported as dropped ('shutdown'): the rest are not lost. Without it, all are.
   */
  retain?(events: readonly QueuedEvent[]): QueuedEvent[];
}

/**
 * Told, while a request is in flight, which events will make the next one, so the platform can
 * build and compress that body meanwhile (Node). The wire still sees one request at a time.
 */
export type Lookahead = (events: readonly QueuedEvent[]) => void;

export interface QueueOptions {
  send: BatchSender;
  /** Start a request once this many events wait. */
  flushAt: number;
  /** Or once the oldest waiting event has waited this long (ms). */
  flushIntervalMs: number;
  /** Most events in one request. */
  maxBatchSize: number;
  /**
   * Most JSON characters in one request. A character is at most 3 bytes of UTF-8 (a surrogate
   * pair is 2 characters and 4 bytes), so keep this a third of the server's 20 MiB cap or less.
   */
  maxBatchBytes: number;
  /** Most events waiting; the oldest is evicted (and reported) beyond it. */
  maxQueueSize: number;
  /** Most JSON characters waiting; the oldest is evicted beyond it. */
  maxQueueBytes: number;
  retry?: Partial<RetryOptions>;
  persistence?: QueuePersistence;
  /** Passed by Node only; the script tag, which never passes it, does not carry its code. */
  lookahead?: Lookahead;
  onDrop: (error: DroppedEventsError) => void;
  onRetry?: (error: TransportError) => void;
  /** Told of events a 2xx acknowledged (the Node client settles its *Immediate promises by it; not in the script tag). */
  onDelivered?: (events: readonly QueuedEvent[]) => void;
  /** Problems that are neither a drop nor a plain retry (a misconfigured host), once each. */
  onWarning?: (error: HogtailError) => void;
  /** Jitter source; tests pass a fixed one (the script tag always uses Math.random). */
  random?: () => number;
}

export interface QueueStats {
  enqueued: number;
  delivered: number;
  dropped: Partial<Record<DropReason, number>>;
  requests: number;
  retries: number;
  pending: number;
}

export interface Queue {
  enqueue(event: QueuedEvent): void;
  /** Puts events from an earlier run in front of everything, oldest first. */
  restore(events: readonly QueuedEvent[]): void;
  /** Resolves once everything queued before the call is delivered or dropped (or retries stall). */
  flush(): Promise<void>;
  /** Stops all timers and drops what is left with reason 'shutdown'. A no-op in the browser build. */
  close(): void;
  /**
   * Takes events again after close(), as posthog-node's client does after shutdown(): the next
   * flush or shutdown sends them. A no-op in the browser build.
   */
  reopen(): void;
  /**
   * Drops (counted under `reason`, reported with `why`) every event not sent yet, and those of the
   * request in flight if it comes back unsent: opting out.
   */
  discard(reason: DropReason, why: string): void;
  /** Reports a drop that happened outside the queue (invalid input, opt-out) in the same counters. */
  countDrop(reason: DropReason, count?: number): void;
  stats(): QueueStats;
  readonly pending: number;
}
