/**
 * The queue's waiting line: events in capture order with their sizes, the byte total, and cheap
 * removal from the front. Shifting a large array per batch was O(n), so entries live from index
 * `head` and the array is compacted only once half of it is spent.
 */
import type { QueuedEvent } from './event';

export interface Entry {
  event: QueuedEvent;
  seq_: number;
  size_: number;
}

export interface WaitingLine {
  readonly count_: number;
  readonly bytes_: number;
  readonly first_: Entry | undefined;
  push(entry: Entry): void;
  takeFromHead_(): Entry | undefined;
  putBackInFront_(entries: Entry[]): void;
  /** The entries at the front that make the next request (by count and bytes), left in place. */
  nextBatch_(limit: number, maxBytes: number): Entry[];
  /** Empties the line, handing back what it held. */
  clear(): Entry[];
}

/**
 * The events of `entries`. A plain loop, not `.map`: this runs in hogtail's microtasks and promise
 * reactions, where a page's throwing `Array.prototype.map` override would surface as an uncaught error.
 */
export function eventsOf(entries: readonly Entry[]): QueuedEvent[] {
  const events: QueuedEvent[] = [];
  for (const entry of entries) events.push(entry.event);
  return events;
}

export const makeEntry = (event: QueuedEvent, seq: number): Entry => ({ event, seq_: seq, size_: event.json.length });

export function createWaitingLine(): WaitingLine {
  let waiting: Entry[] = [];
  let head = 0;
  let bytes = 0;

  return {
    get count_() {
      return waiting.length - head;
    },
    get bytes_() {
      return bytes;
    },
    get first_() {
      return waiting[head];
    },
    push(entry) {
      waiting.push(entry);
      bytes += entry.size_;
    },
    takeFromHead_() {
      const entry = waiting[head];
      if (entry === undefined) return undefined;
      waiting[head] = undefined as unknown as Entry; // let it be collected before compaction
      head++;
      bytes -= entry.size_;
      if (head > 1024 && head * 2 > waiting.length) {
        waiting = waiting.slice(head);
        head = 0;
      }
      return entry;
    },
    putBackInFront_(entries) {
      waiting = entries.concat(waiting.slice(head));
      head = 0;
      for (const entry of entries) bytes += entry.size_;
    },
    nextBatch_(limit, maxBytes) {
      const batch: Entry[] = [];
      let total = 0;
      for (let index = head; batch.length < limit; index++) {
        const next = waiting[index];
        if (next === undefined || (batch.length > 0 && total + next.size_ > maxBytes)) break;
        total += next.size_;
        batch.push(next);
      }
      return batch;
    },
    clear() {
      const left = waiting.slice(head);
      waiting = [];
      head = 0;
      bytes = 0;
      return left;
    },
  };
}
