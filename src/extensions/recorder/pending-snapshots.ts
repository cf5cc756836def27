/**
 * The `$snapshot` events waiting to be sent, oldest first, with their size: what the snapshot
 * sender takes its requests from, puts back when a request must go again (a retry, a split after
 * a 413), and evicts from when the server has not taken them for too long (bounded in bytes).
 */

/** One `$snapshot` event, as JSON, ready for a batch body. */
export interface Pending {
  readonly uuid: string;
  readonly json: string;
  /** How many rrweb events it carries. */
  readonly events: number;
}

export interface PendingSnapshots {
  /** Adds `items` at the end; returns the oldest evicted to stay under `maxBytes` (the newest is always kept). */
  push(items: readonly Pending[], maxBytes: number): Pending[];
  /** The oldest, as many as `limit` bytes hold (at least one, unless `strict`). */
  take(limit: number, strict?: boolean): Pending[];
  /** `batch` back at the front, in order: it goes again. */
  putBack(batch: readonly Pending[]): void;
  /** Empties the list; returns what was in it. */
  clear(): Pending[];
  count(): number;
  bytes(): number;
}

export const sizeOf = (items: readonly Pending[]) => items.reduce((sum, item) => sum + item.json.length, 0);

export function createPendingSnapshots(): PendingSnapshots {
  let items: Pending[] = [];
  let bytes = 0;
  return {
    push(added, maxBytes) {
      items.push(...added);
      bytes += sizeOf(added);
      const evicted: Pending[] = [];
      while (bytes > maxBytes && items.length > 1) {
        const oldest = items.shift()!;
        bytes -= oldest.json.length;
        evicted.push(oldest);
      }
      return evicted;
    },
    take(limit, strict = false) {
      const batch: Pending[] = [];
      let size = 0;
      for (let item = items[0]; item; item = items[0]) {
        if (size + item.json.length > limit && (strict || batch.length > 0)) break;
        size += item.json.length;
        bytes -= item.json.length;
        batch.push(items.shift()!);
      }
      return batch;
    },
    putBack(batch) {
      items = batch.concat(items);
      bytes += sizeOf(batch);
    },
    clear() {
      const all = items;
      items = [];
      bytes = 0;
      return all;
    },
    count: () => items.length,
    bytes: () => bytes,
  };
}
