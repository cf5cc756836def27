/**
 * Whether a session's recording may be sent, as the project's settings say (posthog-js's rules):
 * - sampling, decided once per session and the same on every page and tab of it: posthog-js's hash
 *   of the session id against `sampleRate`;
 * - the linked flag (with its variant): unknown until the flags arrive (the recording waits), off
 *   (nothing is recorded);
 * - triggers: URL patterns and event names that start the recording of the session they occur in
 *   (until then it waits); `triggerMatchType: 'all'` needs each configured kind to have fired;
 * - the blocklist: nothing is recorded while the page's URL matches it;
 * - the minimum duration: a session shorter than it sends nothing (it waits until it is long enough).
 * startSessionRecording(override) skips sampling, the linked flag or a kind of trigger. What fired
 * and what was overridden holds for the rest of the session, on its later pages too (session-marks.ts).
 */
import type { Hogtail } from '../../browser/index';
import { MARK_KINDS, type SessionMarks } from './session-marks';
import type { RecorderSettings } from './settings';

/** What to do with what was recorded: send it, keep it (bounded) until a gate opens, or record nothing. */
export type Verdict = 'send' | 'wait' | 'off' | 'paused';

export interface Overrides {
  sampling?: boolean;
  linked_flag?: boolean;
  url_trigger?: boolean;
  event_trigger?: boolean;
}

/**
 * Whether a session is sampled in at `rate` (0..1): posthog-js's rule, bit for bit, so a session
 * posthog-js records is one hogtail records (a site moving between them, or running both on two
 * pages of one session, keeps or drops the same sessions). Its hash is Java's string hash
 * (`hash * 31 + char`, 32-bit), made positive; a session is in when that hash mod 100 is under
 * `rate * 100`. Every page and tab of the session decides the same.
 */
export function sampledIn(sessionId: string, rate: number): boolean {
  let hash = 0;
  for (let i = 0; i < sessionId.length; i++) hash = ((hash << 5) - hash + sessionId.charCodeAt(i)) | 0;
  return Math.abs(hash) % 100 < Math.min(100, Math.max(0, rate * 100));
}

/** Reads startSessionRecording()'s argument: `true` is sampling and the linked flag (posthog-js). */
export function readOverride(value: unknown): Overrides {
  if (value === true) return { sampling: true, linked_flag: true };
  return typeof value === 'object' && value !== null ? (value as Overrides) : {};
}

export interface Gates {
  /** The verdict for the session now; `url` is the page's, `sessionAgeMs` how long the session has been recorded. */
  verdict(sessionId: string, url: string, sessionAgeMs: number): Verdict;
  /** Whether the blocklist covers `url`: nothing is recorded there. */
  paused(url: string): boolean;
  /** An event was captured: it may be a trigger. */
  eventCaptured(name: string, sessionId: string): void;
}

/**
 * `current` gives the settings and overrides in force (each new remote config, each
 * startSessionRecording()); `flagsKnown`, whether a flags answer arrived (a linked flag missing
 * from it is off); `marks`, what the session's earlier pages saw (a trigger, an override).
 */
export function createGates(
  client: Hogtail,
  current: () => [RecorderSettings, Overrides],
  flagsKnown: () => boolean,
  marks: SessionMarks,
): Gates {
  const matches = (patterns: readonly RegExp[], url: string) => patterns.some((pattern) => pattern.test(url));

  const flagVerdict = ([settings, overrides]: [RecorderSettings, Overrides], sessionId: string): Verdict => {
    const flag = settings.linkedFlag;
    if (!flag || overrides.linked_flag || marks.has('linked_flag', sessionId)) return 'send';
    const value = client.getFeatureFlag(flag.key, { send_event: false });
    if (value === undefined && !flagsKnown()) return 'wait';
    if (flag.variant === undefined ? !value : value !== flag.variant) return 'off';
    return 'send';
  };

  const triggered = ([settings, overrides]: [RecorderSettings, Overrides], sessionId: string, url: string): boolean => {
    const kinds: boolean[] = [];
    if (settings.urlTriggers.length > 0 && !overrides.url_trigger) {
      if (matches(settings.urlTriggers, url)) marks.mark('url_trigger', sessionId);
      kinds.push(marks.has('url_trigger', sessionId));
    }
    if (settings.eventTriggers.length > 0 && !overrides.event_trigger) kinds.push(marks.has('event_trigger', sessionId));
    if (kinds.length === 0) return true;
    return settings.triggerMatchType === 'all' ? kinds.every(Boolean) : kinds.some(Boolean);
  };

  return {
    verdict(sessionId, url, sessionAgeMs) {
      const now = current();
      const [settings, overrides] = now;
      // startSessionRecording()'s overrides hold for the rest of the session, on its next pages too.
      for (const kind of MARK_KINDS) if (overrides[kind] === true) marks.mark(kind, sessionId);
      const sampling = overrides.sampling || marks.has('sampling', sessionId);
      if (settings.sampleRate !== undefined && !sampling && !sampledIn(sessionId, settings.sampleRate)) return 'off';
      const flag = flagVerdict(now, sessionId);
      if (flag !== 'send') return flag;
      if (matches(settings.urlBlocklist, url)) return 'paused';
      if (!triggered(now, sessionId, url)) return 'wait';
      return sessionAgeMs < settings.minimumDurationMs ? 'wait' : 'send';
    },
    paused: (url) => matches(current()[0].urlBlocklist, url),
    eventCaptured(name, sessionId) {
      if (current()[0].eventTriggers.includes(name)) marks.mark('event_trigger', sessionId);
    },
  };
}
