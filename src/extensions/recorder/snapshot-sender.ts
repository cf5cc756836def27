/**
 * Sends recorded snapshots as PostHog's replay ingestion expects them: `$snapshot` events
 * (`$snapshot_data`: the rrweb events, `$snapshot_bytes`, `$session_id`, `$window_id`), each under
 * about 900 KB (the server refuses a single event over 1 MB), batched in the `/batch/` body shape
 * (`{ api_key, batch, sent_at }`), gzip'd, to the remote config's endpoint (`/s/`). It uses the
 * page's request path (core's fetch executor on the page's fetch, the same response rules and
 * backoff as the event queue).
 *
 * Bounded: what waits to be sent is capped in bytes (the oldest goes first, counted `queue_full`);
 * a request the server refuses is counted `rejected`; one still failing after MAX_ATTEMPTS
 * `retries_exhausted`. At pagehide what is left goes by sendBeacon, uncompressed (there is no later
 * for CompressionStream), in pieces that fit its 64 KB; what cannot fit is counted `too_large`.
 */
import type { DropReason } from '../../browser/index';
import type { ExtensionContext } from '../../browser/index';
import { gzipBody } from '../../browser/delivery/compress';
import { createPageExecutor, sendBeaconRequest, BEACON_MAX_BYTES } from '../../browser/delivery/fetch-executor';
import { backoffDelay, DEFAULT_RETRY } from '../../core/backoff';
import { HogtailError } from '../../core/errors';
import { batchBody } from '../../core/batch-sender';
import { BATCH_RESPONSE_CAP } from '../../core/response-caps';
import { classifyResponse, type HttpExecutor } from '../../core/transport';
import { uuidv7 } from '../../core/uuid';
import { LIB_VERSION } from '../../core/version';

/** One `$snapshot` event at most this big (the server's limit is about 1 MB per event). */
export const MAX_SNAPSHOT_BYTES = 900_000;
/** What may wait to be sent, in bytes of JSON: about a minute of a busy page. */
export const MAX_PENDING_BYTES = 8_000_000;
/** One request at most this big before gzip. */
const MAX_REQUEST_BYTES = 4_000_000;
const MAX_ATTEMPTS = 6;

/** Recorded events of one session and tab, in order. */
export interface SnapshotPart {
  readonly sessionId: string;
  readonly windowId: string;
  /** Each event as JSON (serialised once, when it was recorded). */
  readonly events: readonly string[];
}

interface Pending {
  readonly uuid: string;
  readonly json: string;
  readonly events: number;
}

export interface SnapshotSender {
  /** Queues `part` as one or more `$snapshot` events and sends them now, unless `hold` (pagehide: unload() sends them). */
  send(part: SnapshotPart, hold?: boolean): void;
  /** pagehide: everything left, by sendBeacon. */
  unload(): void;
  /** Drops what waits, counted under `reason` (opt-out: nothing more may leave the page). */
  discard(reason: DropReason): void;
  /** Bytes waiting (for the mutation throttle and tests). */
  pendingBytes(): number;
}

/** `$snapshot` events of at most MAX_SNAPSHOT_BYTES each; an rrweb event bigger than that alone goes alone. */
function toSnapshots(context: ExtensionContext, part: SnapshotPart): Pending[] {
  const distinctId = context.client.get_distinct_id();
  const out: Pending[] = [];
  let chunk: string[] = [];
  let bytes = 0;
  const close = () => {
    if (chunk.length === 0) return;
    const uuid = uuidv7();
    const properties =
      `{"distinct_id":${JSON.stringify(distinctId)},"$session_id":${JSON.stringify(part.sessionId)},` +
      `"$window_id":${JSON.stringify(part.windowId)},"$snapshot_bytes":${bytes},"$snapshot_source":"web",` +
      `"$lib":"hogtail-web","$lib_version":"${LIB_VERSION}","$snapshot_data":[${chunk.join(',')}]}`;
    const timestamp = new Date().toISOString();
    out.push({
      uuid,
      json: `{"uuid":"${uuid}","event":"$snapshot","distinct_id":${JSON.stringify(distinctId)},"properties":${properties},"timestamp":"${timestamp}"}`,
      events: chunk.length,
    });
    chunk = [];
    bytes = 0;
  };
  for (const json of part.events) {
    if (bytes + json.length > MAX_SNAPSHOT_BYTES) close();
    chunk.push(json);
    bytes += json.length;
  }
  close();
  return out;
}

/** `allowed`: whether the user's consent still lets anything leave the page (checked before each request). */
interface Posted {
  outcome: 'ok' | 'retry' | 'drop';
  message: string;
  retryAfterMs?: number | undefined;
}

/** One request: gzip'd where the browser can, judged by the server's rules (core/transport.ts). */
async function post(executor: HttpExecutor, context: ExtensionContext, url: string, json: string): Promise<Posted> {
  const timeoutMs = typeof context.config.request_timeout === 'number' ? context.config.request_timeout : 10_000;
  try {
    const body = typeof CompressionStream === 'function' ? await gzipBody(json) : json;
    const request = {
      url,
      method: 'POST' as const,
      body,
      headers: { 'Content-Type': 'text/plain' },
      timeoutMs,
      maxResponseBytes: BATCH_RESPONSE_CAP,
    };
    const result = classifyResponse(await executor(request), context.host);
    if (result.kind === 'ok') return { outcome: 'ok', message: '' };
    return {
      outcome: result.kind === 'retry' ? 'retry' : 'drop',
      message: result.message,
      retryAfterMs: result.kind === 'retry' ? result.retryAfterMs : undefined,
    };
  } catch (error) {
    return { outcome: 'retry', message: String(error) };
  }
}

/** Counts and reports snapshot events that will not be sent. */
function dropSnapshots(context: ExtensionContext, items: Pending[], reason: DropReason, why: string): void {
  if (items.length === 0) return;
  context.drop(reason, items.length);
  context.report(new HogtailError(`session replay: ${items.length} snapshot event(s) not sent: ${why}`));
}

export function createSnapshotSender(context: ExtensionContext, endpoint: () => string, allowed: () => boolean): SnapshotSender {
  const executor = createPageExecutor();
  let pending: Pending[] = [];
  let bytes = 0;
  let sending = false;
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const url = (beacon: boolean) =>
    context.host.replace(/\/+$/, '') +
    endpoint() +
    (beacon ? '?beacon=1' : typeof CompressionStream === 'function' ? '?compression=gzip-js' : '');

  const drop = (items: Pending[], reason: DropReason, why: string) => dropSnapshots(context, items, reason, why);
  /** The oldest waiting items, as many as `limit` bytes hold (at least one, unless `strict`). */
  const take = (limit: number, strict = false): Pending[] => {
    const batch: Pending[] = [];
    let size = 0;
    for (let item = pending[0]; item; item = pending[0]) {
      if (size + item.json.length > limit && (strict || batch.length > 0)) break;
      size += item.json.length;
      bytes -= item.json.length;
      batch.push(pending.shift()!);
    }
    return batch;
  };

  const later = (ms: number) => {
    clearTimeout(timer);
    timer = setTimeout(() => void next(), ms);
  };

  async function next(): Promise<void> {
    if (sending || pending.length === 0) return;
    if (!allowed()) return sender.discard('opted_out');
    sending = true;
    const batch = take(MAX_REQUEST_BYTES);
    const body = batchBody(context.token, batch, false, new Date().toISOString());
    const { outcome, message, retryAfterMs } = await post(executor, context, url(false), body);
    sending = false;
    if (outcome === 'ok') attempt = 0;
    else if (outcome === 'drop') drop(batch, 'rejected', message);
    else if (++attempt >= MAX_ATTEMPTS) {
      drop(batch, 'retries_exhausted', `still failing after ${attempt} attempts (${message})`);
      attempt = 0;
    } else {
      pending = batch.concat(pending);
      bytes += batch.reduce((sum, item) => sum + item.json.length, 0);
      context.debug(`session replay: sending snapshots failed (${message}); retrying`);
      return later(backoffDelay(attempt, DEFAULT_RETRY, Math.random, retryAfterMs));
    }
    if (pending.length > 0) later(0);
  }

  const sender: SnapshotSender = {
    send(part, hold) {
      for (const item of toSnapshots(context, part)) {
        pending.push(item);
        bytes += item.json.length;
      }
      const evicted: Pending[] = [];
      while (bytes > MAX_PENDING_BYTES && pending.length > 1) {
        const oldest = pending.shift()!;
        bytes -= oldest.json.length;
        evicted.push(oldest);
      }
      drop(evicted, 'queue_full', `over the ${MAX_PENDING_BYTES} byte buffer while the server was not taking them`);
      if (attempt === 0 && !hold) void next();
    },
    unload() {
      clearTimeout(timer);
      if (!allowed()) return sender.discard('opted_out');
      const tooBig: Pending[] = [];
      while (pending.length > 0) {
        // The body's envelope (key, sent_at) takes about 150 bytes of the beacon's budget.
        const piece = take(BEACON_MAX_BYTES - 200, true);
        if (piece.length === 0) {
          const first = pending.shift()!;
          bytes -= first.json.length;
          tooBig.push(first);
        } else if (!sendBeaconRequest({ url: url(true), body: batchBody(context.token, piece, false, new Date().toISOString()) })) {
          tooBig.push(...piece);
        }
      }
      drop(tooBig, 'too_large', 'the page was closing and they did not fit in a beacon (64 KB)');
    },
    discard(reason) {
      clearTimeout(timer);
      const all = pending;
      pending = [];
      bytes = 0;
      if (all.length > 0) context.drop(reason, all.length);
    },
    pendingBytes: () => bytes,
  };
  return sender;
}
