/**
 * A recording held back at pagehide (a session still shorter than `minimumDurationMilliseconds`,
 * or waiting for a trigger) is handed to the next page of the tab instead of dying with this one:
 * without it a session that passes its minimum on its second page was sent without its first.
 * posthog-js parks its buffer the same way, in sessionStorage (which ends with the tab, so a visit
 * that really ended here still honours the gate that held it back).
 *
 * Only the same session and window (tab) takes it back: a new session, or a duplicated tab (which
 * copies sessionStorage), never sends another's recording. Bounded: a part over MAX_PARKED_CHARS,
 * or one the browser refuses to store, is dropped, counted `too_large` and reported. Nothing is
 * parked when the app keeps nothing on the device (`persistence: 'memory'`, `disable_persistence`).
 */
import type { ExtensionContext } from '../../browser/index';
import { HogtailError } from '../../core/errors';

/** About posthog-js's cap for the buffer it parks (900 KB), well inside sessionStorage's 5 MB. */
export const MAX_PARKED_CHARS = 1_000_000;

export interface ParkedPart {
  readonly sessionId: string;
  readonly windowId: string;
  /** rrweb events as JSON, oldest first. */
  readonly events: readonly string[];
}

export interface Parking {
  /** Keeps `part` for the next page of the tab (replacing what was parked before). */
  park(part: ParkedPart, chars: number): void;
  /** The events parked for this session and tab and their size, once (what was parked is gone after); none when none. */
  take(sessionId: string, windowId: string): { events: string[]; bytes: number };
}

function openStore(context: ExtensionContext): Storage | undefined {
  if (context.config.disable_persistence || context.config.persistence === 'memory') return undefined;
  try {
    return sessionStorage;
  } catch {
    return undefined; // storage blocked: nothing is parked
  }
}

/** The parked events, when they are this session's and tab's; the parked part is removed either way. */
function readParked(store: Storage | undefined, key: string, sessionId: string, windowId: string): string[] {
  try {
    const text = store?.getItem(key);
    store?.removeItem(key);
    const lines = text ? text.split('\n') : [];
    const owner = JSON.parse(lines[0] ?? 'null') as Partial<ParkedPart> | null;
    return owner?.sessionId === sessionId && owner.windowId === windowId ? lines.slice(1) : [];
  } catch {
    return []; // storage refused, or not ours or damaged: never sent
  }
}

export function createParking(context: ExtensionContext): Parking {
  const store = openStore(context);
  const key = `ht|${context.token}|replay-part`;
  const refuse = (chars: number, why: string) => {
    context.drop('too_large', 1);
    context.report(
      new HogtailError(`session replay: the recording of this page (${chars} characters) could not be kept for the next page: ${why}`),
    );
  };
  return {
    park(part, chars) {
      if (!store) return;
      if (chars > MAX_PARKED_CHARS) return refuse(chars, `over the ${MAX_PARKED_CHARS} characters a page may hand on`);
      // One event a line: JSON text never holds a raw line break, so nothing is escaped twice.
      const text = JSON.stringify({ sessionId: part.sessionId, windowId: part.windowId }) + '\n' + part.events.join('\n');
      try {
        store.setItem(key, text);
      } catch {
        refuse(chars, 'the browser refused to store it (storage full)');
      }
    },
    take(sessionId, windowId) {
      const events = readParked(store, key, sessionId, windowId);
      return { events, bytes: events.reduce((sum, json) => sum + json.length, 0) };
    },
  };
}
