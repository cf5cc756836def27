/**
 * Session replay's routes in `hogtail dev`: `/_dev/recordings` (the recorded sessions, JSON),
 * `/_dev/recordings/<session id>[?window=<window id>]` (one tab's rrweb events: the first recorded by default), `/_dev/replay/<session id>` (the
 * player page) and `/_dev/replay/rrweb-replay.js|css` (rrweb's player). Behind the dev routes'
 * Host check (dev/routes.ts); no CORS headers: other origins must not read recordings.
 */
import type { ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { writeResponse } from '../http/respond';
import type { DevStore } from '../dev/store-types';
import { playerCsp, renderPlayerPage, SESSION_ID } from './player-page';
import { PLAYER_SCRIPT, PLAYER_STYLE, playerFile } from './player-files';
import { listRecordings, tabRecording } from './recordings';

const TYPES: Record<string, string> = { [PLAYER_SCRIPT]: 'text/javascript; charset=utf-8', [PLAYER_STYLE]: 'text/css; charset=utf-8' };

function send(res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}): void {
  writeResponse(res, status, { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', 'Content-Type': type, ...headers }, body);
}

/** Answers and returns true for session replay's paths (already without a trailing slash); false for any other. */
export function handleReplayRoute(res: ServerResponse, path: string, query: URLSearchParams, store: DevStore): boolean {
  if (path === '/_dev/recordings') {
    send(res, 200, 'application/json', JSON.stringify({ recordings: listRecordings(store) }));
    return true;
  }
  const [, kind, rest = ''] = /^\/_dev\/(recordings|replay)\/(.*)$/.exec(path) ?? [];
  if (kind === undefined) return false;
  if (kind === 'replay' && (rest === PLAYER_SCRIPT || rest === PLAYER_STYLE)) {
    const text = playerFile(rest);
    if (text === undefined) send(res, 404, 'text/plain; charset=utf-8', `rrweb's player (${rest}) is not part of this install`);
    else send(res, 200, TYPES[rest]!, text);
    return true;
  }
  const sessionId = safeDecode(rest);
  if (sessionId === undefined || !SESSION_ID.test(sessionId)) {
    send(res, 400, 'text/plain; charset=utf-8', 'a session id is letters, digits, ".", "_" and "-" (as get_session_id() gives it)');
    return true;
  }
  if (kind === 'recordings') {
    const windowId = query.get('window') ?? undefined;
    send(res, 200, 'application/json', JSON.stringify({ sessionId, ...tabRecording(store, sessionId, windowId) }));
    return true;
  }
  const nonce = randomBytes(16).toString('base64');
  send(res, 200, 'text/html; charset=utf-8', renderPlayerPage(sessionId, nonce), {
    'Content-Security-Policy': playerCsp(nonce),
    'X-Frame-Options': 'DENY',
  });
  return true;
}

function safeDecode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
