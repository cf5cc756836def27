/**
 * What `hogtail dev` keeps in memory: the newest events within a count and a byte cap (a few 1 MB
 * events must not pin gigabytes), recent rejections, and rejection counts by reason. The files on
 * disk keep everything; this is what the page and `/_dev/events` read fast.
 *
 * An event is kept as the JSON line it was stored as, with its name and distinct id beside it for
 * filtering, and parsed again only when asked for. One string per event is cheap for the garbage
 * collector to keep (the parsed object graph cost the ingest an eighth of its time in copying) and
 * takes a fraction of the heap an object would, so the byte cap is close to the memory held.
 */
import type { DevRejection, EventQuery, StoredEvent } from './store-types';

type Count = { status: number; reason: string; count: number };

export interface KeptEvent {
  seq: number;
  event: string;
  distinctId: string;
  /** The event as stored on disk (JSON, without its seq). */
  line: string;
}

export interface MemoryWindow {
  /** Events kept, oldest first. */
  readonly events: readonly KeptEvent[];
  readonly rejections: DevRejection[];
  readonly counts: Map<string, Count>;
  /** Events kept by name. */
  readonly eventNames: ReadonlyMap<string, number>;
  /** Rejections kept since the start or the last clear. */
  totalRejections(): number;
  keepEvent(event: KeptEvent): void;
  keepRejection(rejection: DevRejection): void;
  trim(): void;
  clear(): void;
  query(query: EventQuery): StoredEvent[];
}

/** A kept event as the store hands it out. */
export function parseKept(kept: KeptEvent): StoredEvent {
  const event = JSON.parse(kept.line) as StoredEvent;
  event.seq = kept.seq;
  return event;
}

export function createMemoryWindow(maxEvents: number, maxEventBytes: number, maxRejections: number): MemoryWindow {
  let events: KeptEvent[] = [];
  let bytesInMemory = 0;
  const eventNames = new Map<string, number>();
  const rejections: DevRejection[] = [];
  const counts = new Map<string, Count>();
  let totalRejections = 0;

  const forget = (dropped: readonly KeptEvent[]): void => {
    for (const { event, line } of dropped) {
      bytesInMemory -= line.length;
      const left = (eventNames.get(event) ?? 1) - 1;
      if (left === 0) eventNames.delete(event);
      else eventNames.set(event, left);
    }
  };

  return {
    get events() {
      return events;
    },
    rejections,
    counts,
    eventNames,
    totalRejections: () => totalRejections,
    keepEvent(event) {
      events.push(event);
      bytesInMemory += event.line.length;
      eventNames.set(event.event, (eventNames.get(event.event) ?? 0) + 1);
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
      for (let index = 0; index < drop; index++) freed += events[index]?.line.length ?? 0;
      if (bytesInMemory > maxEventBytes) {
        while (drop < events.length - 1 && bytesInMemory - freed > maxEventBytes * 0.9) freed += events[drop++]?.line.length ?? 0;
      }
      if (drop > 0) {
        forget(events.slice(0, drop));
        events = events.slice(drop);
      }
      if (rejections.length > maxRejections * 1.1) rejections.splice(0, rejections.length - maxRejections);
    },
    clear() {
      events = [];
      bytesInMemory = 0;
      eventNames.clear();
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
        if (distinctId !== undefined && candidate.distinctId !== distinctId) continue;
        found.push(parseKept(candidate));
      }
      return found.reverse();
    },
  };
}
