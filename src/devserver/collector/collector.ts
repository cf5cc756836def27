/**
 * `createCollector`: the ingestion rules on a loopback port, keeping what arrives for assertions, with
 * hooks to watch requests and a seam (`handleExchange`) for fault injection.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createByteBudget } from '../ingest/budget';
import { createEventStore } from './event-store';
import { describeError, evaluateRequest, writeOutcome, type IngestOptions, type IngestOutcome } from '../ingest/ingest';
import { listen } from '../http/listen';
import { sendText } from '../http/respond';
import { parseRequestTarget } from '../ingest/routes';
import type { ReceivedEvent, Rejection } from '../ingest/types';

export interface RequestInfo {
  requestId: number;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
}

/**
 * One request after the rules judged it, handed to `handleExchange`. `record()` and `respond()` are
 * what the collector does by default; a harness may call either, both, or neither (fault injection).
 */
export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  requestId: number;
  outcome: Exclude<IngestOutcome, { kind: 'aborted' }>;
  /** Keeps the accepted events (or the rejection) and tells the callbacks. Only the first call counts. */
  record(): void;
  /** Answers as the rules say. */
  respond(): void;
}

export interface CollectorOptions extends IngestOptions {
  /** Default 127.0.0.1: a dev collector must not be reachable from the network. */
  host?: string;
  /** Default 0, an ephemeral port; read the one chosen from `collector.port`. */
  port?: number;
  onRequest?: (request: RequestInfo) => void;
  onEvents?: (events: readonly ReceivedEvent[]) => void;
  onReject?: (rejection: Rejection) => void;
  /** Takes over each request once judged. Default: `record()` then `respond()`. */
  handleExchange?: (exchange: Exchange) => void | Promise<void>;
}

export interface Collector {
  /** e.g. http://127.0.0.1:53211, no trailing slash: what an SDK takes as its host. */
  readonly url: string;
  readonly port: number;
  /** Accepted events in arrival order; the same array until the collector is gone. */
  readonly events: ReceivedEvent[];
  readonly rejections: Rejection[];
  /** HTTP requests received since creation or the last clear(), preflights included. */
  readonly requests: number;
  /** Resolves with a snapshot once at least `count` events are in; rejects with what did arrive on timeout. */
  waitForEvents(count: number, timeoutMs?: number): Promise<ReceivedEvent[]>;
  /** Forgets events, rejections and the request count; request ids keep increasing. */
  clear(): void;
  close(): Promise<void>;
}

const DEFAULT_WAIT_MS = 5_000;

const recordThenRespond = (exchange: Exchange): void => {
  exchange.record();
  exchange.respond();
};

export async function createCollector(options: CollectorOptions = {}): Promise<Collector> {
  const store = createEventStore();
  const handleExchange = options.handleExchange ?? recordThenRespond;
  const budget = createByteBudget(options.maxInFlightBytes);
  let lastRequestId = 0;
  let requests = 0;

  const record = (requestId: number, outcome: IngestOutcome): void => {
    if (outcome.kind === 'accepted') {
      store.addEvents(outcome.events);
      options.onEvents?.(outcome.events);
    } else if (outcome.kind === 'rejected') {
      const rejection: Rejection = { requestId, status: outcome.status, reason: outcome.reason, path: outcome.path };
      store.addRejection(rejection);
      options.onReject?.(rejection);
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const requestId = ++lastRequestId;
    const path = parseRequestTarget(req.url).pathname;
    requests += 1;
    try {
      options.onRequest?.({ requestId, method: req.method ?? '', path, headers: req.headers });
      const outcome = await evaluateRequest(req, requestId, options, budget);
      if (outcome.kind === 'aborted') return;
      let recorded = false;
      await handleExchange({
        req,
        res,
        requestId,
        outcome,
        record() {
          if (recorded) return;
          recorded = true;
          record(requestId, outcome);
        },
        respond: () => writeOutcome(req, res, outcome),
      });
    } catch (error) {
      // A throwing callback or harness must show up in the test, not crash the server or hang the client.
      const reason = `collector error: ${describeError(error)}`;
      store.addRejection({ requestId, status: 500, reason, path });
      sendText(req, res, 500, reason);
    }
  };

  const server = await listen((req, res) => void handle(req, res), options.host ?? '127.0.0.1', options.port ?? 0);

  return {
    url: server.url,
    port: server.port,
    events: store.events,
    rejections: store.rejections,
    get requests() {
      return requests;
    },
    waitForEvents: (count, timeoutMs = DEFAULT_WAIT_MS) => store.waitForEvents(count, timeoutMs),
    clear() {
      store.clear();
      requests = 0;
    },
    async close() {
      store.close();
      await server.close();
    },
  };
}
