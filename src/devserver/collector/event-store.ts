/**
 * The test collector's memory: accepted events and rejections in arrival order, and waits for a count.
 */
import type { ReceivedEvent, Rejection } from '../ingest/types';

export interface EventStore {
  /** Accepted events in arrival order. The same array for the store's life, so references stay live. */
  readonly events: ReceivedEvent[];
  readonly rejections: Rejection[];
  addEvents(events: readonly ReceivedEvent[]): void;
  addRejection(rejection: Rejection): void;
  waitForEvents(count: number, timeoutMs: number): Promise<ReceivedEvent[]>;
  clear(): void;
  /** Fails pending waits at once so a test that forgot one does not sit out its timeout. */
  close(): void;
}

interface Waiter {
  count: number;
  resolve: (events: ReceivedEvent[]) => void;
  reject: (error: Error) => void;
  timer: ReturnType<typeof setTimeout>;
}

export function createEventStore(): EventStore {
  const events: ReceivedEvent[] = [];
  const rejections: Rejection[] = [];
  const waiters = new Set<Waiter>();
  let closed = false;

  const release = (): void => {
    for (const waiter of waiters) {
      if (events.length < waiter.count) continue;
      waiters.delete(waiter);
      clearTimeout(waiter.timer);
      waiter.resolve(events.slice());
    }
  };

  const describeShortfall = (count: number, timeoutMs: number): string => {
    const last = rejections[rejections.length - 1];
    const lastRejection = last === undefined ? '' : `; last rejection: ${last.status} ${last.reason}`;
    return (
      `waitForEvents(${count}): only ${events.length} event(s) arrived within ${timeoutMs} ms ` +
      `(${rejections.length} request(s) rejected${lastRejection})`
    );
  };

  return {
    events,
    rejections,
    addEvents(batch) {
      // A loop, not push(...batch): spreading a huge batch into arguments overflows the stack.
      for (const event of batch) events.push(event);
      release();
    },
    addRejection(rejection) {
      rejections.push(rejection);
    },
    waitForEvents(count, timeoutMs) {
      if (events.length >= count) return Promise.resolve(events.slice());
      if (closed) return Promise.reject(new Error(`waitForEvents(${count}): the collector is closed`));
      return new Promise((resolve, reject) => {
        const waiter: Waiter = {
          count,
          resolve,
          reject,
          timer: setTimeout(() => {
            waiters.delete(waiter);
            reject(new Error(describeShortfall(count, timeoutMs)));
          }, timeoutMs),
        };
        waiters.add(waiter);
      });
    },
    clear() {
      events.length = 0;
      rejections.length = 0;
    },
    close() {
      closed = true;
      for (const waiter of waiters) {
        clearTimeout(waiter.timer);
        waiter.reject(new Error(`waitForEvents(${waiter.count}): the collector closed with ${events.length} event(s)`));
      }
      waiters.clear();
    },
  };
}
