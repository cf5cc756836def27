/**
 * Which tab sends which stored events. Each tab owns the segments stored under its id (ledger.ts)
 * and is the only one that sends them; a tab that is gone (closed, crashed, reloaded) leaves its
 * segments to the first live tab of the origin that adopts them. So no event is ever in two
 * tabs' requests at once, and events a closed tab left behind go out with the next page.
 *
 * "Gone" comes from a Web Lock each tab holds for its whole life: the browser releases it when the
 * page goes away, however it goes, and `ifAvailable` lets exactly one adopter take it. Without Web
 * Locks, a lease stands in: each tab refreshes a timestamp and removes it on pagehide; a tab whose
 * stamp is missing or older than LEASE_MS is gone. (The lease has a small race between two
 * adopters sweeping at the same instant; the result is a duplicate with the same uuid, not a loss.)
 *
 * A tab id is a UUIDv7, so its age is known. Tabs younger than GRACE_MS are never adopted: a new
 * tab writes events at once, possibly before its lock request has reached the browser.
 */
import { attempt } from '../../core/safe-json';
import { readKey, removeKey, writeKey } from '../state/storage';
import type { Ledger } from './ledger';
import type { QueuedEvent } from '../../core/event';

const SWEEP_MS = 5_000;
const GRACE_MS = 3_000;
const LEASE_MS = 60_000;

export interface Tabs {
  /** The page is going away for good: give up the lease at once so the next page adopts quickly. */
  leave_(): void;
}

interface LockManagerLike {
  request(
    name: string,
    options: { ifAvailable?: boolean } | (() => Promise<unknown>),
    callback?: (lock: unknown) => unknown,
  ): Promise<unknown>;
}

export function startTabs(
  store: Storage | undefined,
  base: string,
  tabId: string,
  ledger: Ledger,
  restore: (events: QueuedEvent[]) => void,
): Tabs {
  const locks = (navigator as { locks?: LockManagerLike }).locks;
  const leaseKey = (id: string) => base + 't|' + id;
  const take = (id: string) => restore(ledger.adopt_(id)); // the queue ignores an empty restore

  if (!store) return { leave_() {} };
  // Held until the page is gone: the callback's promise never settles. A sandboxed page may
  // refuse locks (throw); its storage is then unusable too.
  attempt(() => locks?.request(base + tabId, () => new Promise(() => {})).catch(() => {}), 0);

  async function sweep(): Promise<void> {
    const now = Date.now();
    if (!locks) writeKey(store, leaseKey(tabId), String(now));
    for (const id of ledger.others_()) {
      if (now - parseInt(id.slice(0, 8) + id.slice(9, 13), 16) < GRACE_MS) continue;
      if (locks) {
        await locks.request(base + id, { ifAvailable: true }, (lock) => lock && take(id));
      } else if (!(now - Number(readKey(store, leaseKey(id))) < LEASE_MS)) {
        take(id);
        removeKey(store, leaseKey(id));
      }
    }
  }

  const loop = (): void => {
    sweep()
      .catch(() => {})
      .then(() => setTimeout(loop, SWEEP_MS));
  };
  loop();

  return {
    leave_() {
      if (!locks) removeKey(store, leaseKey(tabId));
    },
  };
}
