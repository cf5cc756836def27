/**
 * What a recording remembers of its session from page to page: which triggers fired (a URL, an
 * event) and which of startSessionRecording()'s overrides the app gave (sampling, the linked flag,
 * a kind of trigger). Without it a reload inside a triggered session waited for a trigger again,
 * and the pages after a checkout page were never sent.
 *
 * Each mark is the id of the session it happened in, as posthog-js keeps its
 * `$session_recording_url_trigger_activated_session`, `…_event_trigger_activated_session` and
 * `$session_is_sampled` (the keys are its names): a new session matches none, so it starts
 * untriggered, and nothing needs clearing. Kept in localStorage, which the tabs of a session share
 * (posthog-js keeps them in its persistence); in memory only when the app turned persistence off.
 */
import type { ExtensionContext } from '../../browser/index';
import { isObject } from '../../core/special-events';

/** What is marked: the names of startSessionRecording()'s overrides (gates.ts), a trigger's firing its own. */
export const MARK_KINDS = ['sampling', 'linked_flag', 'url_trigger', 'event_trigger'] as const;
export type MarkKind = (typeof MARK_KINDS)[number];

const KEYS: Readonly<Record<MarkKind, string>> = {
  url_trigger: '$session_recording_url_trigger_activated_session',
  event_trigger: '$session_recording_event_trigger_activated_session',
  sampling: '$session_is_sampled',
  linked_flag: '$session_recording_linked_flag_overridden_session',
};

export interface SessionMarks {
  /** Whether `kind` happened in session `sessionId` (on this page or an earlier one of the session). */
  has(kind: MarkKind, sessionId: string): boolean;
  mark(kind: MarkKind, sessionId: string): void;
}

/** localStorage, unless the app keeps nothing on the device (or the browser refuses storage). */
function openStore(context: ExtensionContext): Storage | undefined {
  const { config } = context;
  if (config.disable_persistence || config.persistence === 'memory') return undefined;
  try {
    return localStorage;
  } catch {
    return undefined; // storage blocked (a sandboxed frame, privacy settings): memory only
  }
}

export function createSessionMarks(context: ExtensionContext): SessionMarks {
  const store = openStore(context);
  const key = `ht|${context.token}|replay`;
  const read = (): Record<string, unknown> => {
    try {
      const saved: unknown = JSON.parse(store?.getItem(key) ?? '{}');
      return isObject(saved) ? saved : {};
    } catch {
      return {}; // unreadable: as if nothing was marked
    }
  };
  const memory: Record<string, unknown> = read();
  return {
    // Read again when not marked here: another tab of the session may have fired a trigger.
    has: (kind, sessionId) => memory[KEYS[kind]] === sessionId || read()[KEYS[kind]] === sessionId,
    mark(kind, sessionId) {
      if (memory[KEYS[kind]] === sessionId) return;
      memory[KEYS[kind]] = sessionId;
      try {
        store?.setItem(key, JSON.stringify({ ...read(), [KEYS[kind]]: sessionId }));
      } catch {
        // Storage full or refused: the mark lasts as long as this page.
      }
    },
  };
}
