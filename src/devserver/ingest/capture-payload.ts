/**
 * The body shapes the capture paths accept (single event, `{ batch }`, bare array) and their keys.
 */
import { readProjectKey } from './api-key';
import { describeType, hasOwn, isAbsent, isPlainObject } from './json-shape';
import { refuse, type CaptureEndpoint, type Refusal, type ReceivedEvent } from './types';
import { SERIALISED_BYTES_PER_CHAR } from './nesting';
import { validateEvent, type EventFields } from './validate-event';

export interface CaptureContext {
  endpoint: CaptureEndpoint;
  requestId: number;
  receivedAt: string;
  maxEventBytes: number;
  /** From the body's text (see `JsonShape`): lets events that cannot be over the limit skip the count. */
  longestContainer?: readonly number[];
}

/** A refusal keeps whatever items could be read, so a harness can still tell which uuids were refused. */
export type CaptureResult = { ok: true; events: ReceivedEvent[] } | (Refusal & { items: readonly unknown[] });

interface Envelope {
  items: readonly unknown[];
  /** The level of the body's text at which the items open: 1 for one event, 2 in an array, 3 in `batch`. */
  itemLevel: number;
  apiKey: unknown;
  sentAt: string | undefined;
  historicalMigration: boolean;
}

/** All-or-nothing, like the real server: one bad event and nothing of the request is kept. */
export function acceptCapture(body: unknown, context: CaptureContext): CaptureResult {
  const envelope = openEnvelope(body);
  if (!envelope.ok) return { ...envelope, items: looseItems(body) };
  const { items } = envelope.value;

  const apiKey = readProjectKey(envelope.value.apiKey);
  if (!apiKey.ok) return { ...apiKey, items };

  const events: ReceivedEvent[] = [];
  const longestItem = context.longestContainer?.[envelope.value.itemLevel - 1];
  const sizeLimit =
    longestItem !== undefined && longestItem * SERIALISED_BYTES_PER_CHAR <= context.maxEventBytes ? undefined : context.maxEventBytes;
  for (const [index, item] of items.entries()) {
    const validated = validateEvent(item, index, sizeLimit);
    if (!validated.ok) return { ...validated, items };
    events.push(toReceivedEvent(validated.fields, envelope.value, apiKey.key, context));
  }
  return { ok: true, events };
}

function toReceivedEvent(fields: EventFields, envelope: Envelope, apiKey: string, context: CaptureContext): ReceivedEvent {
  // Built field by field rather than spread from `fields`: this runs for every event of every batch,
  // and a spread copy per event was a tenth of the dev server's ingest time.
  const received: ReceivedEvent = {
    event: fields.event,
    distinct_id: fields.distinct_id,
    properties: fields.properties,
    historical_migration: envelope.historicalMigration,
    api_key: apiKey,
    receivedAt: context.receivedAt,
    requestId: context.requestId,
    endpoint: context.endpoint,
  };
  if (fields.uuid !== undefined) received.uuid = fields.uuid;
  if (fields.timestamp !== undefined) received.timestamp = fields.timestamp;
  // An event's own sent_at wins over the batch's; leave the key out entirely when neither was sent.
  const sentAt = fields.sent_at ?? envelope.sentAt;
  if (sentAt !== undefined) received.sent_at = sentAt;
  if (fields.$set !== undefined) received.$set = fields.$set;
  if (fields.$set_once !== undefined) received.$set_once = fields.$set_once;
  return received;
}

type Opened = { ok: true; value: Envelope } | Refusal;

/** Every capture path takes every shape, as the real service does: one event, `{ batch }`, or an array. */
function openEnvelope(body: unknown): Opened {
  if (Array.isArray(body)) return openArray(body);
  if (!isPlainObject(body)) return refuse(400, `the body must be a JSON object or array, got ${describeType(body)}`);
  if (hasOwn(body, 'token') && hasOwn(body, 'api_key')) return refuse(400, 'the body has both token and api_key');

  const sentAt = typeof body.sent_at === 'string' ? body.sent_at : undefined;
  const historicalMigration = body.historical_migration === true;

  if (hasOwn(body, 'batch')) {
    const { batch } = body;
    if (!Array.isArray(batch)) return refuse(400, `batch must be an array, got ${describeType(batch)}`);
    if (batch.length === 0) return refuse(400, 'batch is empty');
    if (isAbsent(body.api_key) && !isAbsent(body.token)) {
      return refuse(401, 'a batch body carries the project key as api_key, not token');
    }
    return { ok: true, value: { items: batch, itemLevel: 3, apiKey: body.api_key, sentAt, historicalMigration } };
  }

  return { ok: true, value: { items: [body], itemLevel: 1, apiKey: keyOf(body), sentAt, historicalMigration } };
}

/**
 * posthog-js posts bare arrays, each event carrying the key in properties.token. The key is the one
 * the events carry; an event without one rides on it, and only an array where none has a key is a 401.
 */
function openArray(items: readonly unknown[]): Opened {
  if (items.length === 0) return refuse(400, 'the event array is empty');

  const keys = new Set<unknown>();
  for (const [index, item] of items.entries()) {
    const at = `event at index ${index}`;
    if (!isPlainObject(item)) return refuse(400, `${at} must be an object, got ${describeType(item)}`);
    if (hasOwn(item, 'token') && hasOwn(item, 'api_key')) return refuse(400, `${at} has both token and api_key`);
    const key = keyOf(item);
    if (!isAbsent(key)) keys.add(typeof key === 'string' ? key.trim() : key);
  }
  if (keys.size === 0) return refuse(401, 'no event in the array carries a project key (api_key, token or properties.token)');
  if (keys.size > 1) return refuse(400, 'the events in one request carry different project keys');
  return { ok: true, value: { items, itemLevel: 2, apiKey: [...keys][0], sentAt: undefined, historicalMigration: false } };
}

/** The events a body seems to carry, for reporting on a body whose envelope was refused. */
function looseItems(body: unknown): readonly unknown[] {
  if (Array.isArray(body)) return body;
  if (!isPlainObject(body)) return [];
  return Array.isArray(body.batch) ? body.batch : [body];
}

function keyOf(item: Record<string, unknown>): unknown {
  if (!isAbsent(item.api_key)) return item.api_key;
  if (!isAbsent(item.token)) return item.token;
  return isPlainObject(item.properties) ? item.properties.token : undefined;
}
