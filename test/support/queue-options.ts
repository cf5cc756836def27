// The queue settings the in-process queue tests share: small batches, fast retries, fixed jitter.
import type { QueueOptions } from '../../src/core/queue';
import { serverCloser } from '../../src/core/queue-close';

export const TEST_QUEUE_OPTIONS = {
  flushAt_: 5,
  flushIntervalMs_: 20,
  maxBatchSize_: 100,
  maxBatchBytes_: 1_000_000,
  maxQueueSize_: 1_000,
  maxQueueBytes_: 10_000_000,
  retry_: { initialDelayMs: 1, maxDelayMs: 4, maxAttempts: 1000 },
  random_: () => 0.5,
  // close() as the server clients have it.
  closer_: serverCloser,
} satisfies Partial<QueueOptions>;
