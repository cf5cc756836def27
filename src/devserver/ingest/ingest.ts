/**
 * The ingestion rules end to end: route, read, decode and judge a request, then answer it as the real
 * server would. Judging and answering are separate so harnesses can answer differently.
 */
import { isUtf8 } from 'node:buffer';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { BUSY_REASON, createByteBudget, leaseFrom, type ByteBudget } from './budget';
import { acceptCapture } from './capture-payload';
import { defaultDecideResponse, readDecideRequest } from './decide';
import { decodeBody, type Decoded } from './decode-body';
import { flagsV2Response } from '../flags/v2-response';
import { readBody } from './read-body';
import { sendEmpty, sendJson, sendPreflight, sendText } from '../http/respond';
import { matchRoute, parseRequestTarget, type RequestTarget, type Route } from './routes';
import type { DecideHandler, DecideResponse, ReceivedEvent, Refusal } from './types';

export interface IngestOptions {
  /** Cap on the wire body of one request. Default 20 MiB, the real server's. */
  maxBodyBytes?: number;
  /** Cap on one event serialised as JSON. Default 1,000,000 bytes, about the real server's. */
  maxEventBytes?: number;
  /** Answers decide. Default: no flags, see `defaultDecideResponse()`. */
  decide?: DecideHandler;
  /** The surveys `GET /api/surveys/?token=` lists (PostHog's shape, as exported). Default: none. */
  surveys?: () => readonly unknown[];
  /**
   * Request bytes (wire bodies and inflated gzip) held at once by the whole server; past it a request
   * is answered 503 with Retry-After. Default 384 MiB.
   */
  maxInFlightBytes?: number;
}

export const DEFAULT_MAX_BODY_BYTES = 20 * 1024 * 1024;
export const DEFAULT_MAX_EVENT_BYTES = 1_000_000;

/**
 * JSON compresses well, so the inflated cap sits far above the wire cap; it exists only so a tiny gzip
 * bomb cannot take the process down.
 */
const MIN_MAX_INFLATED_BYTES = 64 * 1024 * 1024;
const INFLATION_ALLOWANCE = 8;

/**
 * What the rules made of one request, before anything is written back. Judging and answering are
 * separate so a harness can look at the verdict and answer differently (see the fault collector).
 */
export type IngestOutcome =
  | { kind: 'preflight'; path: string }
  | {
      kind: 'accepted';
      path: string;
      events: ReceivedEvent[];
      beacon: boolean;
      /** Some bytes were not UTF-8 and read as U+FFFD; see `Decoded`. */
      invalidUtf8: boolean;
    }
  | { kind: 'decide'; path: string; response: DecideResponse }
  | { kind: 'surveys'; path: string; response: { surveys: readonly unknown[] } }
  | {
      kind: 'rejected';
      path: string;
      status: number;
      reason: string;
      /** Whatever events could be read from the body; empty when it could not be decoded. */
      items: readonly unknown[];
      headers?: OutgoingHttpHeaders;
      /** The start of the decoded body, for showing what was refused; absent when it was not read. */
      sample?: string;
    }
  /** The client went away before its body arrived; there is no one to answer. */
  | { kind: 'aborted'; path: string };

/** Shared by every caller that brings no budget of its own, so together they stay bounded too. */
const sharedBudget = createByteBudget();
const SAMPLE_CHARS = 2_000;
const BUSY_HEADERS = { 'Retry-After': '1' };

export async function evaluateRequest(
  req: IncomingMessage,
  requestId: number,
  options: IngestOptions = {},
  budget: ByteBudget = sharedBudget,
): Promise<IngestOutcome> {
  const target = parseRequestTarget(req.url);
  const path = target.pathname;
  const route = matchRoute(path);
  if (route === undefined) {
    const reason = `nothing at ${path}: the collector answers /batch/, /capture/, /e/, /i/v0/e/, /track/, /s/, /decide, /flags and /api/surveys`;
    return rejected(path, { status: 404, reason });
  }
  if (req.method === 'OPTIONS') return { kind: 'preflight', path };
  if (route.kind === 'surveys') return surveysAnswer(req.method, target, options);
  if (req.method !== 'POST') {
    const refusal = rejected(path, { status: 405, reason: `${path} takes POST, not ${req.method ?? 'no method'}` });
    return { ...refusal, headers: { Allow: 'POST, OPTIONS' } };
  }

  const lease = leaseFrom(budget);
  try {
    const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    const read = await readBody(req, maxBodyBytes, lease);
    if (read.kind === 'aborted') return { kind: 'aborted', path };
    if (read.kind === 'busy') return { ...rejected(path, { status: 503, reason: BUSY_REASON }), headers: BUSY_HEADERS };
    if (read.kind === 'too-large') {
      return rejected(path, { status: 413, reason: `the request body is over the ${read.limit} byte limit; split the batch` });
    }

    const decoded = await decodeBody(read.bytes, {
      query: target.query,
      contentType: req.headers['content-type'],
      contentEncoding: req.headers['content-encoding'],
      maxInflatedBytes: Math.max(maxBodyBytes * INFLATION_ALLOWANCE, MIN_MAX_INFLATED_BYTES),
      lease,
    });
    if (!decoded.ok) {
      const refusal = { ...rejected(path, decoded), ...(decoded.text === undefined ? sampleOfBytes(read.bytes) : sampleOf(decoded.text)) };
      return decoded.status === 503 ? { ...refusal, headers: BUSY_HEADERS } : refusal;
    }
    const settled = await evaluateBody(decoded, route, target, req, requestId, options);
    return settled.kind === 'rejected' ? { ...settled, ...sampleOf(decoded.text) } : settled;
  } finally {
    lease.releaseAll();
  }
}

/** `GET /api/surveys/?token=`: as the real server, a GET that names the project by its key in the query. */
function surveysAnswer(method: string | undefined, target: RequestTarget, options: IngestOptions): IngestOutcome {
  const path = target.pathname;
  if (method !== 'GET') {
    const refusal = rejected(path, { status: 405, reason: `${path} takes GET, not ${method ?? 'no method'}` });
    return { ...refusal, headers: { Allow: 'GET, OPTIONS' } };
  }
  if (!target.query.get('token')) return rejected(path, { status: 401, reason: `${path} needs the project key as ?token=` });
  return { kind: 'surveys', path, response: { surveys: options.surveys?.() ?? [] } };
}

function sampleOf(text: string): { sample: string } {
  return { sample: text.length > SAMPLE_CHARS ? text.slice(0, SAMPLE_CHARS) : text };
}

/** A body that never became text (bad gzip): shown as text only if it is some, else described. */
function sampleOfBytes(bytes: Buffer): { sample: string } {
  const head = bytes.subarray(0, SAMPLE_CHARS);
  return isUtf8(head) ? sampleOf(head.toString('utf8')) : { sample: `(${bytes.length} bytes that are not text)` };
}

async function evaluateBody(
  decoded: Extract<Decoded, { ok: true }>,
  route: Exclude<Route, { kind: 'surveys' }>,
  target: RequestTarget,
  req: IncomingMessage,
  requestId: number,
  options: IngestOptions,
): Promise<IngestOutcome> {
  const { value: body, invalidUtf8 } = decoded;
  const path = target.pathname;
  if (route.kind === 'decide' || route.kind === 'flags') {
    const parsed = readDecideRequest(body, target.query.get('v') ?? undefined);
    if (!parsed.ok) return rejected(path, parsed);
    const decide = options.decide ?? defaultDecideResponse;
    try {
      if (route.kind === 'decide') return { kind: 'decide', path, response: await decide(parsed.request, req.headers) };
      const response = await decide({ ...parsed.request, endpoint: '/flags/' }, req.headers);
      return { kind: 'decide', path, response: flagsV2Response(response, requestId) as DecideResponse };
    } catch (error) {
      return rejected(path, { status: 500, reason: `the decide handler threw: ${describeError(error)}` });
    }
  }

  const result = acceptCapture(body, {
    endpoint: route.endpoint,
    requestId,
    receivedAt: new Date().toISOString(),
    maxEventBytes: options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES,
    longestContainer: decoded.longestContainer,
  });
  if (!result.ok) return rejected(path, result, result.items);
  return { kind: 'accepted', path, events: result.events, beacon: target.query.get('beacon') === '1', invalidUtf8 };
}

function rejected(
  path: string,
  refusal: Pick<Refusal, 'status' | 'reason'>,
  items: readonly unknown[] = [],
): Extract<IngestOutcome, { kind: 'rejected' }> {
  return { kind: 'rejected', path, status: refusal.status, reason: refusal.reason, items };
}

export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Answers as the real server would for the outcome. */
export function writeOutcome(req: IncomingMessage, res: ServerResponse, outcome: IngestOutcome): void {
  switch (outcome.kind) {
    case 'preflight':
      return sendPreflight(req, res);
    case 'accepted':
      // A beacon's answer is never read, so the real server spares the body.
      return outcome.beacon ? sendEmpty(req, res, 204) : sendJson(req, res, 200, { status: 'Ok' });
    case 'decide':
    case 'surveys':
      return sendJson(req, res, 200, outcome.response);
    case 'rejected':
      return sendText(req, res, outcome.status, outcome.reason, outcome.headers);
    case 'aborted':
      return;
  }
}

/**
 * The rules as a plain `node:http` request listener, for mounting in a server of your own. The
 * collector uses the two halves directly so it can record what was accepted.
 */
export function createIngestHandler(options: IngestOptions = {}): (req: IncomingMessage, res: ServerResponse) => Promise<IngestOutcome> {
  let lastRequestId = 0;
  const budget = createByteBudget(options.maxInFlightBytes);
  return async (req, res) => {
    const outcome = await evaluateRequest(req, ++lastRequestId, options, budget);
    writeOutcome(req, res, outcome);
    return outcome;
  };
}
