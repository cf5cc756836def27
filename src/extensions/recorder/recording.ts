/**
 * One run of rrweb's recorder, from start() to stop(): it keeps what rrweb emits for the current
 * session and tab (each event serialised once), and every FLUSH_MS, when it has grown past a
 * snapshot's size, and at pagehide hands it on as the gates say: sent, kept until a gate opens
 * (at pagehide: parked for the session's next page in this tab, parked-part.ts, which starts from
 * it), or dropped (sampled out, a linked flag off, a blocklisted URL). It follows the page's session:
 * when the session rotates (idle, 24 hours) the old session's part is handed on and a new full
 * snapshot starts the new one. Only what the user does keeps the session alive, as in posthog-js.
 */
import { record } from '@rrweb/record';
import type { ExtensionContext } from '../../browser/index';
import { HogtailError } from '../../core/errors';
import type { Gates, Verdict } from './gates';
import { createMutationGuard } from './mutation-guard';
import { maskMetaEvent, pageUrlMask } from './network/page-url';
import { recordingPlugins } from './plugins';
import { createParking } from './parked-part';
import { CUSTOM, INCREMENTAL, SOURCE_MUTATION, USER_SOURCES, type RecordedEvent } from './rrweb-types';
import type { RecorderSettings } from './settings';
import { MAX_PENDING_BYTES, MAX_SNAPSHOT_BYTES, type SnapshotSender } from './snapshot-sender';

/** How often what was recorded is handed on (posthog-js: 2 s). */
export const FLUSH_MS = 2_000;

export interface Recording {
  /** Hands on what is buffered now; `pagehide`: for the unload beacon. */
  flush(pagehide?: boolean): void;
  /** Stops rrweb; what is buffered is handed on first (unless `discard`). */
  stop(discard?: boolean): void;
}

interface Part {
  sessionId: string;
  windowId: string;
  startedAt: number;
  events: string[];
  bytes: number;
  lastTimestamp: number;
}

export interface RecordingOptions {
  readonly context: ExtensionContext;
  readonly settings: RecorderSettings;
  readonly gates: Gates;
  readonly sender: SnapshotSender;
  /** Whether the user's consent still allows recording (checked at every event). */
  readonly allowed: () => boolean;
  /** Told when the recording stopped itself (consent withdrawn, sampled out, the mutation brake). */
  readonly onStopped: (verdict: Verdict | 'consent' | 'mutations') => void;
}

const BRAKE_MESSAGE = 'session replay stopped: the page changes its DOM faster than a recording can carry; the recording so far is sent';

/** The custom event a player shows where the mutation brake stopped the recording. */
const pausedMarker = () =>
  JSON.stringify({ type: CUSTOM, data: { tag: 'recording paused', payload: { reason: 'mutation rate' } }, timestamp: Date.now() });

export function startRecording(options: RecordingOptions): Recording | undefined {
  const { context, settings, gates, sender } = options;
  const guard = createMutationGuard();
  let part: Part | undefined;
  let paused = false;
  let stopRrweb: (() => void) | undefined;
  let stopped = false;

  const parking = createParking(context);
  // A part starts with what an earlier page of the session and tab parked (none: no events).
  const newPart = ({ windowId, ...ids }: ReturnType<ExtensionContext['sessionIds']>): Part | undefined =>
    windowId === undefined ? undefined : { ...ids, windowId, ...parking.take(ids.sessionId, windowId), lastTimestamp: ids.startedAt };

  const handOn = (pagehide = false): Verdict | undefined => {
    if (!part || part.events.length === 0) return undefined;
    const verdict = gates.verdict(part.sessionId, location.href, part.lastTimestamp - part.startedAt);
    if (verdict === 'send') {
      sender.send({ sessionId: part.sessionId, windowId: part.windowId, events: part.events }, pagehide);
    } else if (verdict === 'wait' && (pagehide || part.bytes < MAX_PENDING_BYTES)) {
      if (pagehide) parking.park(part, part.bytes); // the next page of the session may send it
      return verdict; // kept until a gate opens
    } else if (verdict === 'wait') {
      // Waiting too long for a trigger: start again from a fresh full snapshot, as posthog-js trims its buffer.
      context.debug('session replay: still waiting for a trigger; the buffer restarts from a new full snapshot');
      setTimeout(() => record.takeFullSnapshot(), 0);
    }
    part.events = [];
    part.bytes = 0;
    return verdict;
  };

  const stop = (discard = false) => {
    if (stopped) return;
    stopped = true;
    clearInterval(timer);
    if (!discard) handOn();
    stopRrweb?.();
  };

  const selfStop = (why: Verdict | 'consent' | 'mutations') => {
    stop(why === 'consent' || why === 'off');
    options.onStopped(why);
  };

  const maskHref = pageUrlMask(context.config);
  const emit = (recorded: RecordedEvent) => {
    const event = maskMetaEvent(recorded, maskHref);
    if (stopped || !event) return;
    if (!options.allowed()) return selfStop('consent');
    const source = event.type === INCREMENTAL ? (event.data as { source?: number }).source : undefined;
    const ids = context.sessionIds(source !== undefined && USER_SOURCES.includes(source));
    if (part && part.sessionId !== ids.sessionId) {
      handOn();
      part = undefined;
      setTimeout(() => record.takeFullSnapshot(), 0); // the new session's recording starts whole
    }
    part ??= newPart(ids);
    if (!part) return selfStop('consent'); // cookieless: no window id, nothing to tie a recording to
    const blocked = settings.urlBlocklist.length > 0 && gates.paused(location.href);
    if (blocked !== paused && !(paused = blocked)) setTimeout(() => record.takeFullSnapshot(), 0);
    if (blocked) return;
    const json = JSON.stringify(event);
    if (source === SOURCE_MUTATION && !guard(json.length, Date.now())) return brake();
    part.events.push(json);
    part.bytes += json.length;
    part.lastTimestamp = event.timestamp;
    if (part.bytes > MAX_SNAPSHOT_BYTES) handOn();
  };

  const brake = () => {
    part?.events.push(pausedMarker());
    context.report(new HogtailError(BRAKE_MESSAGE));
    selfStop('mutations');
  };

  const timer = setInterval(() => {
    if (!options.allowed()) return selfStop('consent');
    const verdict = handOn();
    if (verdict === 'off') selfStop('off');
  }, FLUSH_MS);
  stopRrweb = record<RecordedEvent>({
    ...settings.rrweb,
    emit,
    plugins: recordingPlugins(context, settings),
    errorHandler: () => true, // rrweb's own failure never reaches the page
  });
  if (!stopRrweb) {
    clearInterval(timer);
    context.report(new HogtailError('session replay: rrweb could not start recording in this browser; nothing is recorded'));
    return undefined;
  }
  return {
    flush(pagehide) {
      handOn(pagehide);
    },
    stop,
  };
}
