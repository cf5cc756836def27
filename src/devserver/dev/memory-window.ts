/**
 * What `hogtail dev` keeps in memory: the newest events within a count and a byte cap (a few 1 MB
 * events must not pin gigabytes), recent rejections, and rejection counts by reason. The files on
 * disk keep everything; this is what the page and `/_dev/events` read fast.
 */
import type { DevRejection, EventQuery, StoredEvent } from './store-types';

type Count = { status: number; reason: string; count: number };

export interface MemoryWindow {
  readonly events: StoredEvent[];
  readonly rejections: DevRejection[];
  readonly counts: Map<string, Count>;
  /** Rejections kept since the start or the last clear. */
  totalRejections(): number;
  keepEvent(event: StoredEvent, size: number): void;
  keepRejection(rejection: DevRejection): void;
  trim(): void;
  clear(): void;
  query(query: EventQuery): StoredEvent[];
}

export function createMemoryWindow(maxEvents: number, maxEventBytes: number, maxRejections: number): MemoryWindow {
  const events: StoredEvent[] = [];
  /** Serialised length of each event in `events`, same order, for the byte cap. */
  const sizes: number[] = [];
  let bytesInMemory = 0;
  const rejections: DevRejection[] = [];
  const counts = new Map<string, Count>();
  let totalRejections = 0;

  return {
    events,
    rejections,
    counts,
    totalRejections: () => totalRejections,
    keepEvent(event, size) {
      events.push(event);
      sizes.push(size);
      bytesInMemory += size;
    },
    keepRejection(rejection) {
      totalRejections++;
      rejections.push(rejection);
      const key = `${rejection.status} ${rejection.reason}`;
      const entry = counts.get(key) ?? { status: rejection.status, reason: rejection.reason, count: 0 };
      entry.count++;
      counts.set(key, entry);
    },
    // Trimmed in chunks: shifting one at a time would copy the whole array per event.
    trim() {
      let drop = events.length > maxEvents * 1.1 ? events.length - maxEvents : 0;
      let freed = 0;
      for (let index = 0; index < drop; index++) freed += sizes[index] ?? 0;
      if (bytesInMemory > maxEventBytes) {
        while (drop < events.length - 1 && bytesInMemory - freed > maxEventBytes * 0.9) freed += sizes[drop++] ?? 0;
      }
      if (drop > 0) {
        events.splice(0, drop);
        sizes.splice(0, drop);
        bytesInMemory -= freed;
      }
      if (rejections.length > maxRejections * 1.1) rejections.splice(0, rejections.length - maxRejections);
    },
    clear() {
      events.length = 0;
      sizes.length = 0;
      bytesInMemory = 0;
      rejections.length = 0;
      counts.clear();
      totalRejections = 0;
    },
    query({ limit = 100, event, distinctId, after }) {
      const found: StoredEvent[] = [];
      for (let index = events.length - 1; index >= 0 && found.length < limit; index--) {
        const candidate = events[index];
        if (candidate === undefined) continue;
        if (after !== undefined && candidate.seq <= after) break;
        if (event !== undefined && candidate.event !== event) continue;
        if (distinctId !== undefined && candidate.distinct_id !== distinctId) continue;
        found.push(candidate);
      }
      return found.reverse();
    },
  };
}
