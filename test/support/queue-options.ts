// The queue settings the in-process queue tests share: small batches, fast retries, fixed jitter.
import type { QueueOptions } from '../../src/core/queue';
import { closeQueue } from '../../src/core/queue-close';

export const TEST_QUEUE_OPTIONS = {
  flushAt: 5,
  flushIntervalMs: 20,
  maxBatchSize: 100,
  maxBatchBytes: 1_000_000,
  maxQueueSize: 1_000,
  maxQueueBytes: 10_000_000,
  retry: { initialDelayMs: 1, maxDelayMs: 4, maxAttempts: 1000 },
  random: () => 0.5,
  // close() as the server clients have it.
  closer: closeQueue,
} satisfies Partial<QueueOptions>;
