/**
 * Sends recorded snapshots as PostHog's replay ingestion expects them: `$snapshot` events
 * (`$snapshot_data`: the rrweb events, `$snapshot_bytes`, `$session_id`, `$window_id`), each under
 * about 900 KB (the server refuses a single event over 1 MB), batched in the `/batch/` body shape
 * (`{ api_key, batch, sent_at }`), gzip'd, to the remote config's endpoint (`/s/`). It sends
 * through the script tag's own request executor, handed over in the ExtensionContext (`post`), with
 * the same response rules and backoff as the event queue; at pagehide by sendBeacon, as the tag's
 * own last events go.
 *
 * A request the server finds too large (413), or refuses for something in it (400), is split: the
 * sender's request size halves, down to one `$snapshot` event per request; one that is still
 * refused alone is dropped, counted `too_large` (413) or `rejected`, and the rest is delivered.
 * After a 413 the smaller size stays for the page (the server said where its limit is); after a
 * 400, only until the refused event is found.
 *
 * Bounded: what waits to be sent is capped in bytes (the oldest goes first, counted `queue_full`);
 * a request refused whatever it carries (a bad key, a wrong host) is counted `rejected`; one still
 * failing after MAX_ATTEMPTS `retries_exhausted`. At pagehide what is left goes by sendBeacon,
 * uncompressed (there is no later for CompressionStream), in pieces that fit its 64 KB; what cannot
 * fit is counted `too_large`.
 */
import type { DropReason } from '../../browser/index';
import type { ExtensionContext } from '../../browser/index';
import { gzipBody } from '../../browser/delivery/compress';
import { BEACON_MAX_BYTES, sendBeaconRequest } from '../../browser/delivery/fetch-executor';
import { backoffDelay, DEFAULT_RETRY } from '../../core/backoff';
import { HogtailError } from '../../core/errors';
import { batchBody } from '../../core/batch-sender';
import { BATCH_RESPONSE_CAP } from '../../core/response-caps';
import { classifyResponse, noResponse, type DeliveryResult } from '../../core/transport';
import { uuidv7 } from '../../core/uuid';
import { LIB_VERSION } from '../../core/version';
import { createPendingSnapshots, sizeOf, type Pending } from './pending-snapshots';

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

/** One request through the page's request path, gzip'd where the browser can, judged by the server's rules (core/transport.ts). */
async function post(context: ExtensionContext, path: string, json: string): Promise<DeliveryResult> {
  try {
    const body = typeof CompressionStream === 'function' ? await gzipBody(json) : json;
    const { status, body: text, retryAfterHeader } = await context.post(path, BATCH_RESPONSE_CAP, body);
    return classifyResponse({ status, body: text, retryAfter: retryAfterHeader ?? null }, context.host);
  } catch (error) {
    return noResponse(error);
  }
}

/** Counts and reports snapshot events that will not be sent. */
function dropSnapshots(context: ExtensionContext, items: Pending[], reason: DropReason, why: string): void {
  if (items.length === 0) return;
  context.drop(reason, items.length);
  context.report(new HogtailError(`session replay: ${items.length} snapshot event(s) not sent: ${why}`));
}

/**
 * A 413 or 400 for `batch`: the smaller request size to send it again in, or undefined when it was
 * one event alone (dropped: `too_large` for a 413, else `rejected`).
 */
function refused(context: ExtensionContext, batch: Pending[], result: Extract<DeliveryResult, { kind: 'split' }>): number | undefined {
  if (batch.length > 1) {
    context.debug(
      `session replay: the server refused ${batch.length} snapshot events together (${result.status}); sending them in smaller requests`,
    );
    return Math.max(1, Math.floor(sizeOf(batch) / 2));
  }
  if (result.status === 413) dropSnapshots(context, batch, 'too_large', `over the server's size limit even alone (${result.message})`);
  else dropSnapshots(context, batch, 'rejected', result.message);
  return undefined;
}

export function createSnapshotSender(context: ExtensionContext, endpoint: () => string, allowed: () => boolean): SnapshotSender {
  const pending = createPendingSnapshots();
  /** How big one request may be: what the server's 413s taught (each halves it), for the rest of the page. */
  let sizeLimit = MAX_REQUEST_BYTES;
  /** While a 400 is narrowed down to the event the server refuses: smaller requests until it is dropped. */
  let isolating: number | undefined;
  let sending = false;
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const path = (beacon: boolean) =>
    endpoint() + (beacon ? '?beacon=1' : typeof CompressionStream === 'function' ? '?compression=gzip-js' : '');

  const drop = (items: Pending[], reason: DropReason, why: string) => dropSnapshots(context, items, reason, why);

  const later = (ms: number) => {
    clearTimeout(timer);
    timer = setTimeout(() => void next(), ms);
  };

  async function next(): Promise<void> {
    if (sending || pending.count() === 0) return;
    if (!allowed()) return sender.discard('opted_out');
    sending = true;
    const batch = pending.take(Math.min(sizeLimit, isolating ?? sizeLimit));
    const body = batchBody(context.token, batch, false, new Date().toISOString());
    const result = await post(context, path(false), body);
    sending = false;
    if (result.kind === 'ok') attempt = 0;
    else if (result.kind === 'split') {
      const smaller = refused(context, batch, result);
      if (smaller !== undefined) pending.putBack(batch);
      if (result.status === 413) sizeLimit = smaller ?? sizeLimit;
      else isolating = smaller; // undefined once the refused event is dropped: back to full requests
    } else if (result.kind === 'reject') drop(batch, 'rejected', result.message);
    else if (++attempt >= MAX_ATTEMPTS) {
      drop(batch, 'retries_exhausted', `still failing after ${attempt} attempts (${result.message})`);
      attempt = 0;
    } else {
      pending.putBack(batch);
      context.debug(`session replay: sending snapshots failed (${result.message}); retrying`);
      return later(backoffDelay(attempt, DEFAULT_RETRY, Math.random, result.retryAfterMs));
    }
    if (pending.count() > 0) later(0);
  }

  const sender: SnapshotSender = {
    send(part, hold) {
      const evicted = pending.push(toSnapshots(context, part), MAX_PENDING_BYTES);
      drop(evicted, 'queue_full', `over the ${MAX_PENDING_BYTES} byte buffer while the server was not taking them`);
      if (attempt === 0 && !hold) void next();
    },
    unload() {
      clearTimeout(timer);
      if (!allowed()) return sender.discard('opted_out');
      const tooBig: Pending[] = [];
      while (pending.count() > 0) {
        // The body's envelope (key, sent_at) takes about 150 bytes of the beacon's budget.
        const piece = pending.take(BEACON_MAX_BYTES - 200, true);
        if (piece.length === 0)
          tooBig.push(...pending.take(0)); // the first alone: too big for any beacon
        else if (
          !sendBeaconRequest({
            url: context.host.replace(/\/+$/, '') + path(true),
            body: batchBody(context.token, piece, false, new Date().toISOString()),
          })
        )
          tooBig.push(...piece);
      }
      drop(tooBig, 'too_large', 'the page was closing and they did not fit in a beacon (64 KB)');
    },
    discard(reason) {
      clearTimeout(timer);
      const all = pending.clear();
      if (all.length > 0) context.drop(reason, all.length);
    },
    pendingBytes: () => pending.bytes(),
  };
  return sender;
}
