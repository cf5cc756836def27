/**
 * The page session replay's network and canvas capture is checked on (issue #24): it calls its own
 * API with fetch and with XMLHttpRequest, each with a JSON body, a harmless header and an
 * Authorization header, with a cookie set for the origin, then draws on a canvas. The secrets are
 * constants, so a test can look for them in what was sent.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { StaticServer } from './support/static-server';

export const SECRETS = { fetchAuth: 'Bearer fetch-auth-secret', xhrAuth: 'Bearer xhr-auth-secret', cookie: 'cookie-secret-value' };
export const ANSWER = '{"fruit":"banana"}';
export const FETCH_BODY = '{"item":"apple"}';
export const XHR_BODY = '{"item":"pear"}';
export const API_PATH = '/api/answer.json';

/** One request as the network plugin records it (the fields the tests read). */
export interface NetworkRecord {
  name: string;
  entryType?: string;
  initiatorType?: string;
  method?: string;
  status?: number;
  startTime?: number;
  endTime?: number;
  timestamp?: number;
  requestHeaders?: Record<string, string>;
  responseHeaders?: Record<string, string>;
  requestBody?: string;
  responseBody?: string;
  isInitial?: boolean;
  [field: string]: unknown;
}

type RrwebEvent = { type: number; data?: { plugin?: string; source?: number; payload?: { requests?: NetworkRecord[] } } };

/** The requests in the network plugin events among `events` (rrweb events). */
export const networkRecords = (events: readonly RrwebEvent[]): NetworkRecord[] =>
  events
    .filter((event) => event.type === 6 && event.data?.plugin === 'rrweb/network@1')
    .flatMap((event) => event.data?.payload?.requests ?? []);

/** rrweb's canvas frames (incremental snapshots of source CanvasMutation) among `events`. */
export const canvasFrames = (events: readonly RrwebEvent[]) => events.filter((event) => event.type === 3 && event.data?.source === 9);

/** Serves the page's API answer (`application/json`) at API_PATH on `server`. */
export function serveApi(server: StaticServer): void {
  const dir = mkdtempSync(join(tmpdir(), 'hogtail-network-'));
  writeFileSync(join(dir, 'answer.json'), ANSWER);
  server.file(API_PATH, join(dir, 'answer.json'), 'application/json');
}

export function networkPage(head: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>network</title>${head}</head>
<body><main id="route">network page</main><canvas id="art" width="120" height="60"></canvas><p id="status"></p></body></html>`;
}

/** The calls and the drawing; resolves with what the page's own code received (it must not change). */
export async function callAndDraw(page: Page): Promise<{ fetched: string; xhr: string }> {
  return page.evaluate(
    async ({ secrets, path, fetchBody, xhrBody }) => {
      document.cookie = `sid=${secrets.cookie}; path=/`;
      const response = await fetch(path + '?via=fetch', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: secrets.fetchAuth, 'X-Trace': 'trace-1' },
        body: fetchBody,
      });
      const fetched = await response.text();
      const xhr = await new Promise<string>((resolve) => {
        const request = new XMLHttpRequest();
        request.open('POST', path + '?via=xhr');
        request.setRequestHeader('Content-Type', 'application/json');
        request.setRequestHeader('Authorization', secrets.xhrAuth);
        request.onload = () => resolve(request.responseText);
        request.send(xhrBody);
      });
      const context = (document.getElementById('art') as HTMLCanvasElement).getContext('2d')!;
      context.fillStyle = '#c00';
      context.fillRect(0, 0, 60, 60);
      return { fetched, xhr };
    },
    { secrets: SECRETS, path: API_PATH, fetchBody: FETCH_BODY, xhrBody: XHR_BODY },
  );
}
