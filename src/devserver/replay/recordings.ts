/**
 * The session recordings `hogtail dev` holds: the `$snapshot` events it received (at `/s/`, as
 * PostHog's replay ingestion takes them), grouped by session for the live page's list, and one
 * tab's rrweb events in order, for the player (posthog-js's packed ones unpacked). Read from the store's memory (the newest
 * 100,000 events by default): a recording older than that is on disk and found by a search.
 */
import type { DevStore, StoredEvent } from '../dev/store-types';
import { unpackPosthogEvent } from './posthog-compressed';

/** At most this many `$snapshot` events are read for the list or a recording. */
const MAX_SNAPSHOT_EVENTS = 10_000;

/** One tab (window id) of a recorded session. */
export interface RecordingTab {
  windowId: string;
  /** Its first rrweb event, ms since the epoch. */
  start: number;
  events: number;
}

export interface RecordingSummary {
  sessionId: string;
  distinctId: string;
  /** How many tabs (window ids) the session was recorded in. */
  windows: number;
  /** Those tabs, the first recorded first; the player plays one at a time. */
  tabs: RecordingTab[];
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
export const listRecordings = (store: DevStore): RecordingSummary[] => summarize(snapshotEvents(store));

/** The sessions of these `$snapshot` events, each with its tabs, the most recent first. */
function summarize(snapshots: StoredEvent[]): RecordingSummary[] {
  const sessions = new Map<string, RecordingSummary & { tabsById: Map<string, RecordingTab> }>();
  for (const event of snapshots) {
    const sessionId = event.properties.$session_id;
    const data = rrwebEvents(event);
    if (typeof sessionId !== 'string' || data.length === 0) continue;
    let summary = sessions.get(sessionId);
    if (!summary) {
      summary = {
        sessionId,
        distinctId: event.distinct_id,
        windows: 0,
        tabs: [],
        tabsById: new Map(),
        start: Infinity,
        end: 0,
        events: 0,
        bytes: 0,
      };
      sessions.set(sessionId, summary);
    }
    const windowId = String(event.properties.$window_id);
    let tab = summary.tabsById.get(windowId);
    if (!tab) summary.tabsById.set(windowId, (tab = { windowId, start: Infinity, events: 0 }));
    for (const item of data) {
      tab.start = Math.min(tab.start, item.timestamp);
      summary.start = Math.min(summary.start, item.timestamp);
      summary.end = Math.max(summary.end, item.timestamp);
    }
    tab.events += data.length;
    summary.events += data.length;
    summary.bytes += Number(event.properties.$snapshot_bytes) || 0;
  }
  return [...sessions.values()]
    .map(({ tabsById, ...summary }) => {
      const tabs = [...tabsById.values()].sort((a, b) => a.start - b.start);
      return { ...summary, windows: tabs.length, tabs };
    })
    .sort((a, b) => b.end - a.end);
}

/** One tab's recording: its rrweb events in time order, and the session's other tabs to play next. */
export interface TabRecording {
  /** The tab played: `windowId` when given, else the first recorded. */
  windowId: string | undefined;
  /** Every tab of the session, the first recorded first. */
  windowIds: string[];
  events: RrwebEvent[];
}

export function tabRecording(store: DevStore, sessionId: string, windowId?: string): TabRecording {
  const ofSession = snapshotEvents(store).filter((event) => event.properties.$session_id === sessionId);
  const windowIds = (summarize(ofSession)[0]?.tabs ?? []).map((tab) => tab.windowId);
  const played = windowId ?? windowIds[0];
  const events = ofSession
    .filter((event) => String(event.properties.$window_id) === played)
    .flatMap(rrwebEvents)
    .map(unpackPosthogEvent)
    .sort((a, b) => a.timestamp - b.timestamp);
  return { windowId: played, windowIds, events };
}
