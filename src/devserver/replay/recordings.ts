/**
 * The session recordings `hogtail dev` holds: the `$snapshot` events it received (at `/s/`, as
 * PostHog's replay ingestion takes them), grouped by session for the live page's list, and one
 * session's rrweb events in order, for the player (posthog-js's packed ones unpacked). Read from the store's memory (the newest
 * 100,000 events by default): a recording older than that is on disk and found by a search.
 */
import type { DevStore, StoredEvent } from '../dev/store-types';
import { unpackPosthogEvent } from './posthog-compressed';

/** At most this many `$snapshot` events are read for the list or a recording. */
const MAX_SNAPSHOT_EVENTS = 10_000;

export interface RecordingSummary {
  sessionId: string;
  distinctId: string;
  /** Tabs (window ids) the session was recorded in. */
  windows: number;
  /** First and last rrweb event, ms since the epoch. */
  start: number;
  end: number;
  /** rrweb events and their bytes as sent. */
  events: number;
  bytes: number;
}

interface RrwebEvent {
  type: number;
  timestamp: number;
  data?: unknown;
  cv?: unknown;
}

const rrwebEvents = (event: StoredEvent): RrwebEvent[] => {
  const data = event.properties.$snapshot_data;
  return Array.isArray(data)
    ? data.filter((item): item is RrwebEvent => typeof item === 'object' && item !== null && typeof item.timestamp === 'number')
    : [];
};

const snapshotEvents = (store: DevStore) => store.query({ event: '$snapshot', limit: MAX_SNAPSHOT_EVENTS });

/** The recorded sessions, the most recent first. */
export function listRecordings(store: DevStore): RecordingSummary[] {
  const sessions = new Map<string, RecordingSummary & { windowIds: Set<unknown> }>();
  for (const event of snapshotEvents(store)) {
    const sessionId = event.properties.$session_id;
    const data = rrwebEvents(event);
    if (typeof sessionId !== 'string' || data.length === 0) continue;
    let summary = sessions.get(sessionId);
    if (!summary) {
      summary = {
        sessionId,
        distinctId: event.distinct_id,
        windows: 0,
        windowIds: new Set(),
        start: Infinity,
        end: 0,
        events: 0,
        bytes: 0,
      };
      sessions.set(sessionId, summary);
    }
    summary.windowIds.add(event.properties.$window_id);
    for (const item of data) {
      summary.start = Math.min(summary.start, item.timestamp);
      summary.end = Math.max(summary.end, item.timestamp);
    }
    summary.events += data.length;
    summary.bytes += Number(event.properties.$snapshot_bytes) || 0;
  }
  return [...sessions.values()].map(({ windowIds, ...summary }) => ({ ...summary, windows: windowIds.size })).sort((a, b) => b.end - a.end);
}

/** One session's rrweb events in time order (of one tab: `windowId`, else the first recorded). */
export function recordingEvents(store: DevStore, sessionId: string, windowId?: string): RrwebEvent[] {
  const ofSession = snapshotEvents(store).filter((event) => event.properties.$session_id === sessionId);
  const tab = windowId ?? ofSession.find((event) => rrwebEvents(event).length > 0)?.properties.$window_id;
  return ofSession
    .filter((event) => event.properties.$window_id === tab)
    .flatMap(rrwebEvents)
    .map(unpackPosthogEvent)
    .sort((a, b) => a.timestamp - b.timestamp);
}
