/**
 * posthog-js's `$window_id`: one id per browser tab, so events of two tabs in one session can be
 * told apart. Kept in sessionStorage, so a reload keeps it; a duplicated tab (or `window.open`)
 * starts with a copy of that storage while the first page is still open, and is told apart by a
 * "page open" mark that leaving the page clears. A session this tab starts gets a new id, as in
 * posthog-js.
 */
import { uuidv7 } from '../../core/uuid';
import { readKey, writeKey } from '../storage';

export interface WindowId {
  /** The tab's id. */
  id(): string;
  /** This tab started a new session. */
  renew(): void;
}

/** @param store sessionStorage, or undefined to keep the id in memory only. */
export function createWindowId(store: () => Storage | undefined, key: string): WindowId {
  // "<id> <1 while its page is open, else 0>" (no JSON: a page's Array.prototype.toJSON cannot get in the way)
  const [saved, open] = (readKey(store(), key) ?? '').split(' ');
  let id = saved && open === '0' ? saved : uuidv7();
  const mark = (open: boolean) => writeKey(store(), key, id + (open ? ' 1' : ' 0'));
  mark(true);
  addEventListener('pagehide', () => mark(false));
  addEventListener('pageshow', () => mark(true));
  return {
    id: () => id,
    renew() {
      id = uuidv7();
      mark(true);
    },
  };
}
