/**
 * The promises of captureImmediate and its siblings: each waits for the uuid of its event, and
 * settles when the queue reports it delivered (resolve) or dropped (reject with the drop's error).
 * The events go through the same queue as every other, so capture order is kept.
 */
import { DroppedEventsError, type HogtailError } from '../errors';
import type { QueuedEvent } from '../event';

interface Waiting {
  resolve: () => void;
  reject: (error: HogtailError) => void;
}

/** What one call produced: the uuids it queued (or holds), or why it queued none. */
export interface CallRecord {
  uuids: string[];
  error: HogtailError | undefined;
}

export interface ImmediateRegistry {
  /** Runs `call`, noting what it queues; the promise settles with those events. */
  track(call: (record: CallRecord) => void): Promise<void>;
  delivered(events: readonly QueuedEvent[]): void;
  /** Any reported problem: drops reject the promises waiting on their uuids. */
  reported(error: HogtailError): void;
}

export function createImmediateRegistry(): ImmediateRegistry {
  const waiting = new Map<string, Waiting[]>();

  const settle = (uuid: string, how: (entry: Waiting) => void) => {
    const entries = waiting.get(uuid);
    if (!entries) return;
    waiting.delete(uuid);
    entries.forEach(how);
  };

  return {
    track(call) {
      const record: CallRecord = { uuids: [], error: undefined };
      call(record);
      if (record.error) return Promise.reject(record.error);
      // Dropped by before_send (the app's choice): nothing to wait for, nothing wrong.
      if (record.uuids.length === 0) return Promise.resolve();
      return Promise.all(
        record.uuids.map(
          (uuid) =>
            new Promise<void>((resolve, reject) => {
              const entries = waiting.get(uuid) ?? [];
              entries.push({ resolve, reject });
              waiting.set(uuid, entries);
            }),
        ),
      ).then(() => undefined);
    },
    delivered(events) {
      if (waiting.size === 0) return;
      for (const event of events) settle(event.uuid, (entry) => entry.resolve());
    },
    reported(error) {
      if (waiting.size === 0 || !(error instanceof DroppedEventsError)) return;
      for (const uuid of error.uuids) settle(uuid, (entry) => entry.reject(error));
    },
  };
}
