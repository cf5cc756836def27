/**
 * The durable half of the browser queue: every event this tab holds, mirrored into localStorage.
 *
 * Layout: one key per *segment*, `<prefix><tabId>|<n>`, holding up to 100 events as their batch
 * JSON joined by newlines (JSON.stringify never emits a raw newline, and the uuid sits at a fixed
 * offset, so reading back needs no parse). Events captured in one task are written together in a
 * microtask, so an event is durable before the task that captured it ends (a crash of the page's
 * process right after loses nothing: the write has already left for the browser's storage), and a
 * loop of 10,000 capture() calls costs a hundred writes instead of ten thousand rewrites of one
 * growing key. `flush()` writes at once, for a request that starts in the task of its events.
 * Writing later (half a second, coalescing a burst of clicks into one write) was measured: 171.6 µs
 * per autocaptured click instead of 114.4 (BENCHMARKS.md), bought with the events of a crash's last
 * half second; the guarantee (docs/guarantees.md §2) wins.
 * A segment is removed once every event in it was delivered (or dropped with a reported reason)
 * and rewritten when only some were.
 *
 * The key carries the tab id because a segment belongs to exactly one tab at a time: only its
 * owner sends it (see tabs.ts), which is what keeps two tabs from sending the same event at once.
 *
 * Beyond `maxEvents` / `maxChars` stored, events stay in memory only and are written as soon as
 * deliveries make room; a write that throws (full, revoked) stops writing for the rest of the page.
 */
import type { QueuedEvent } from '../../core/event';
import type { QueuePersistence } from '../../core/queue';
import { attempt } from '../../core/safe-json';
import { keysWith, readKey, removeKey, writeKey } from '../state/storage';

export interface Ledger extends QueuePersistence {
  /** Every event this tab holds, oldest first. */
  list_(): QueuedEvent[];
  /** The events held in memory only (over the caps, no storage, or captured in this task). */
  unstored_(): QueuedEvent[];
  /** Ids of other tabs that have stored events. */
  others_(): string[];
  /** Makes a gone tab's stored events ours (re-keyed under our id) and returns them. */
  adopt_(tabId: string): QueuedEvent[];
  /** Writes the events waiting for their write now. */
  flush_(): void;
  /** Events held only in memory (no storage, full, or over the caps); written first if they can be. */
  readonly unsaved_: number;
}

interface Item {
  record_: QueuedEvent;
  segment_?: Segment;
}

interface Segment {
  key: string;
  items_: Item[];
  live_: number;
  chars_: number;
}

const PER_SEGMENT = 100;
const UUID_START = 9; // '{"uuid":"'.length, fixed by buildEvent

export function createLedger(store: Storage | undefined, prefix: string, tabId: string, maxEvents: number, maxChars: number): Ledger {
  const items = new Map<string, Item>();
  /**
   * Items not stored yet, oldest first (`unstored()`; without storage, every item held). A write
   * looks at these only, so a task's write costs the same however many events are held (hundreds
   * during a burst of clicks, thousands offline).
   */
  let waiting: Item[] = [];
  let storedEvents = 0;
  let storedChars = 0;
  let next = 0;
  let writable = !!store;
  let scheduled = false;

  /** Those of `list` still held (not delivered or dropped since). */
  const live = (list: Item[]) => list.filter((item) => items.get(item.record_.uuid) === item);
  const charsOf = (list: Item[]): number => list.reduce((sum, item) => sum + item.record_.json.length + 1, 0);

  /** Writes a segment; a write that fails stops writing for the rest of the page. */
  const write = (key: string, list: Item[]) => (writable &&= writeKey(store, key, list.map((item) => item.record_.json).join('\n')));

  /** Stores `list` as a new segment of ours. */
  function place(list: Item[], force?: boolean): boolean {
    const chars = charsOf(list);
    const key = prefix + tabId + '|' + next++;
    if ((!force && (storedEvents + list.length > maxEvents || storedChars + chars > maxChars)) || !write(key, list)) return false;
    const segment: Segment = { key, items_: list, live_: list.length, chars_: chars };
    for (const item of list) item.segment_ = segment;
    storedEvents += list.length;
    storedChars += chars;
    return true;
  }

  function persist(): void {
    waiting = live(waiting); // of a uuid captured twice in one task, the last (as `items` holds)
    // Over the caps the rest waits for deliveries to make room (or, storage gone, for pagehide's beacon).
    while (waiting.length > 0 && place(waiting.slice(0, PER_SEGMENT))) waiting = waiting.slice(PER_SEGMENT);
  }

  function flush(): void {
    if (!scheduled) return;
    scheduled = false;
    // Nothing may throw from a microtask into the page (a page that patched Array.prototype.map).
    attempt(persist, 0);
  }

  function schedule(): void {
    if (!scheduled && writable) {
      scheduled = true;
      queueMicrotask(flush);
    }
  }

  return {
    appended(event) {
      const item: Item = { record_: event };
      items.set(event.uuid, item);
      waiting.push(item);
      schedule();
    },

    removed(events) {
      const touched = new Set<Segment>();
      for (const event of events) {
        const item = items.get(event.uuid);
        if (item?.record_ !== event) continue;
        items.delete(event.uuid);
        if (item.segment_) {
          item.segment_.live_--;
          storedEvents--;
          touched.add(item.segment_);
        }
      }
      waiting = live(waiting);
      for (const segment of touched) {
        storedChars -= segment.chars_;
        if (segment.live_ === 0) {
          removeKey(store, segment.key);
          continue;
        }
        // What is left of a partly delivered segment is rewritten, so a later page does not resend
        // what already arrived. If that write fails the old value stays: duplicates, never loss.
        segment.items_ = live(segment.items_);
        segment.chars_ = charsOf(segment.items_);
        storedChars += segment.chars_;
        write(segment.key, segment.items_);
      }
      if (waiting.length > 0) schedule();
    },

    list_() {
      return Array.from(items.values(), (item) => item.record_);
    },

    unstored_() {
      return waiting.map((item) => item.record_);
    },

    others_() {
      const ids = keysWith(store, prefix).map((key) => key.slice(prefix.length, prefix.length + 36));
      return [...new Set(ids)].filter((id) => id !== tabId);
    },

    adopt_(deadTab) {
      const adopted: QueuedEvent[] = [];
      for (const key of keysWith(store, prefix + deadTab + '|')) {
        const list: Item[] = [];
        for (const json of (readKey(store, key) ?? '').split('\n')) {
          const uuid = json.slice(UUID_START, UUID_START + 36);
          if (!json.startsWith('{"uuid":"') || items.has(uuid)) continue;
          const item: Item = { record_: { uuid, json } };
          items.set(uuid, item);
          list.push(item);
          adopted.push(item.record_);
        }
        // Re-keyed under our id, which our tab lock covers. If that write fails (storage full or
        // broken) the old key stays behind: we still send its events, and a later page may send
        // them again with the same uuids. A duplicate, never a loss.
        if (list.length === 0 || place(list, true)) removeKey(store, key);
      }
      return adopted;
    },

    flush_: flush,

    get unsaved_() {
      flush();
      return items.size - storedEvents;
    },
  };
}
