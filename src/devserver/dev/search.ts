/**
 * Search over every stored event, for the page and `/_dev/search`: a term matched, case-insensitively,
 * against the event name, the distinct id and every property value (nested ones too). Results come
 * newest first, a page at a time, with `before` (a seq) as the cursor.
 */
import type { SearchPage, SearchQuery, StoredEvent } from './store-types';

const MAX_VALUE_NODES = 10_000;

export function eventMatches(event: StoredEvent, query: SearchQuery, term: string): boolean {
  if (query.event !== undefined && event.event !== query.event) return false;
  if (query.distinctId !== undefined && event.distinct_id !== query.distinctId) return false;
  if (term === '') return true;
  if (event.event.toLowerCase().includes(term) || event.distinct_id.toLowerCase().includes(term)) return true;
  return valueContains(event.properties, term);
}

/** Walks values with an explicit stack (a deep object must not overflow) and a node cap. */
function valueContains(root: unknown, term: string): boolean {
  const stack: unknown[] = [root];
  for (let visited = 0; stack.length > 0 && visited < MAX_VALUE_NODES; visited++) {
    const value = stack.pop();
    if (typeof value === 'string') {
      if (value.toLowerCase().includes(term)) return true;
    } else if (typeof value === 'number' || typeof value === 'boolean') {
      if (String(value).includes(term)) return true;
    } else if (typeof value === 'object' && value !== null) {
      for (const child of Object.values(value)) stack.push(child);
    }
  }
  return false;
}

/**
 * Collects one page while events stream past oldest first: keeps the newest `limit` matches below
 * the cursor in a ring, so memory stays at one page whatever the number of events searched.
 */
export function createPageCollector(query: SearchQuery): {
  offer(event: StoredEvent): void;
  /** Counts an event that was searched and is known not to match. */
  pass(): void;
  page(): SearchPage;
} {
  const term = query.term.trim().toLowerCase();
  const kept: StoredEvent[] = [];
  let matched = 0;
  let searched = 0;
  let belowCursor = 0;
  return {
    offer(event) {
      searched++;
      if (!eventMatches(event, query, term)) return;
      matched++;
      if (query.before !== undefined && event.seq >= query.before) return;
      belowCursor++;
      kept.push(event);
      if (kept.length > query.limit) kept.shift();
    },
    pass() {
      searched++;
    },
    page() {
      const events = kept.slice().reverse();
      const oldest = events[events.length - 1];
      return { events, matched, searched, nextBefore: belowCursor > query.limit && oldest !== undefined ? oldest.seq : null };
    },
  };
}
