/**
 * A local PostHog stand-in for local-evaluation tests: serves flag definitions on the two
 * definitions paths (with ETag / If-None-Match and a personal-key check) and hands every other
 * request to the dev collector's ingest rules (capture, and decide through `remote`).
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defaultDecideResponse, type DecideRequest, type ReceivedEvent } from '../../../src/devserver';
import { createIngestHandler } from '../../../src/devserver/ingest/ingest';

export const PERSONAL_KEY = 'phx_test_personal_key';

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  status: number;
}

export interface DefinitionsServer {
  url: string;
  /** What the definitions paths answer; change it to simulate an edit in PostHog. */
  definitions: unknown;
  /** Answer every definitions request with this status instead (401, 503, …). */
  forceStatus: number | undefined;
  /** An older server: `/flags/definitions` answers 404. */
  onlyOldPath: boolean;
  /**
   * Answers a definitions request itself (a 429 with Retry-After, a 402, an endless body…) when it
   * returns true; `index` counts definitions requests from 0.
   */
  respond: ((res: ServerResponse, index: number) => boolean) | undefined;
  /** Remote answers for decide, per request. */
  remote: (request: DecideRequest) => Record<string, boolean | string>;
  readonly requests: SeenRequest[];
  readonly events: ReceivedEvent[];
  definitionRequests(): SeenRequest[];
  remoteRequests(): SeenRequest[];
  /** Resolves once `count` definitions requests have been answered. */
  waitForDefinitionRequests(count: number): Promise<void>;
  close(): Promise<void>;
}

export async function startDefinitionsServer(definitions: unknown): Promise<DefinitionsServer> {
  const events: ReceivedEvent[] = [];
  const requests: SeenRequest[] = [];
  const waiters: Array<() => void> = [];
  const ingest = createIngestHandler({
    decide: (request) => ({ ...defaultDecideResponse(), featureFlags: state.remote(request) }),
  });

  const isDefinitions = (path: string) => path === '/flags/definitions' || path === '/api/feature_flag/local_evaluation/';
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    const path = url.split('?')[0] ?? '';
    const seen: SeenRequest = { method: req.method ?? '', url, headers: req.headers, status: 0 };
    requests.push(seen);
    const answer = (status: number, body: string, headers: Record<string, string> = {}) => {
      seen.status = status;
      res.writeHead(status, headers);
      res.end(body);
      waiters.splice(0).forEach((wake) => wake());
    };
    if (!isDefinitions(path)) {
      void ingest(req, res).then((outcome) => {
        seen.status = res.statusCode;
        if (outcome.kind === 'accepted') events.push(...outcome.events);
      });
      return;
    }
    if (state.onlyOldPath && path === '/flags/definitions') return answer(404, 'Not Found');
    const index = requests.filter((request) => isDefinitions(request.url.split('?')[0] ?? '')).length - 1;
    if (state.respond?.(res, index)) {
      res.on('close', () => {
        seen.status = res.statusCode;
        waiters.splice(0).forEach((wake) => wake());
      });
      return;
    }
    if (state.forceStatus !== undefined) return answer(state.forceStatus, 'refused');
    if (req.headers.authorization !== `Bearer ${PERSONAL_KEY}`) return answer(401, 'invalid personal key');
    const body = JSON.stringify(state.definitions);
    const etag = `"${createHash('sha1').update(body).digest('hex')}"`;
    if (req.headers['if-none-match'] === etag) return answer(304, '', { ETag: etag });
    answer(200, body, { 'Content-Type': 'application/json', ETag: etag });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const state: DefinitionsServer = {
    url: `http://127.0.0.1:${port}`,
    definitions,
    forceStatus: undefined,
    onlyOldPath: false,
    respond: undefined,
    remote: () => ({}),
    requests,
    events,
    definitionRequests: () => requests.filter((request) => isDefinitions(request.url.split('?')[0] ?? '') && request.status !== 0),
    remoteRequests: () => requests.filter((request) => /^\/(decide|flags)\/?(\?|$)/.test(request.url)),
    async waitForDefinitionRequests(count) {
      while (state.definitionRequests().length < count) await new Promise<void>((wake) => waiters.push(wake));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return state;
}
