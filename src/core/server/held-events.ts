/**
 * Events captured with sendFeatureFlags wait for their user's flags before they can be queued;
 * events captured after one of them wait behind it, built (and validated) at once, so the queue
 * still sees capture order (which a historical migration relies on). Empty almost always.
 */
import type { QueuedEvent } from '../event';

interface Slot {
  /** False while its flags are being fetched. */
  ready: boolean;
  uuid: string;
  /** Undefined until ready, or when the event turned out invalid (already reported). */
  record: QueuedEvent | undefined;
}

export interface HeldEvents {
  /** Whether anything waits: then every new event must queue behind it. */
  readonly holding: boolean;
  /** Holds a place for an event whose flags are being fetched; call the result once it is built. */
  hold(uuid: string): (record: QueuedEvent | undefined) => void;
  /** Queues a built event behind those held. */
  behind(record: QueuedEvent): void;
  /** Promises of the flag lookups still running (flush() waits for them). */
  readonly waiting: Set<Promise<void>>;
  /** Empties the line; returns the uuids of what it held (to report them). */
  clear(): string[];
}

export function createHeldEvents(enqueue: (record: QueuedEvent) => void): HeldEvents {
  let line: Slot[] = [];
  const release = () => {
    while (line[0]?.ready) {
      const record = line.shift()!.record;
      if (record) enqueue(record);
    }
  };
  return {
    get holding() {
      return line.length > 0;
    },
    hold(uuid) {
      const slot: Slot = { ready: false, uuid, record: undefined };
      line.push(slot);
      return (record) => {
        slot.record = record;
        slot.ready = true;
        release();
      };
    },
    behind(record) {
      line.push({ ready: true, uuid: record.uuid, record });
    },
    waiting: new Set(),
    clear() {
      const uuids = line.map((slot) => slot.record?.uuid ?? slot.uuid);
      line = [];
      return uuids;
    },
  };
}
