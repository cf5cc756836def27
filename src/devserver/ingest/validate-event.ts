/**
 * The real capture service's per-event rules: names, distinct ids, timestamps, uuids and sizes.
 */
import { describeType, hasOwn, isAbsent, isPlainObject } from './json-shape';
import { refuse, type Refusal, type ReceivedEvent } from './types';

/** The part of a received event that comes from the event object itself. */
export type EventFields = Pick<
  ReceivedEvent,
  'uuid' | 'event' | 'distinct_id' | 'properties' | 'timestamp' | 'sent_at' | '$set' | '$set_once'
>;

export type ValidatedEvent = { ok: true; fields: EventFields } | Refusal;

const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Applies the real server's per-event rules. Any failure fails the whole request, so the message names
 * the index to let an SDK (or a person reading a test failure) find the offender. `maxEventBytes`
 * undefined: the caller knows the event is under the limit (see `SERIALISED_BYTES_PER_CHAR`).
 */
export function validateEvent(item: unknown, index: number, maxEventBytes: number | undefined): ValidatedEvent {
  const at = `event at index ${index}`;
  if (!isPlainObject(item)) return refuse(400, `${at} must be an object, got ${describeType(item)}`);
  if (hasOwn(item, 'token') && hasOwn(item, 'api_key')) return refuse(400, `${at} has both token and api_key`);
  if (hasOwn(item, 'distinct_id') && hasOwn(item, '$distinct_id')) {
    return refuse(400, `${at} has both distinct_id and $distinct_id`);
  }

  const size = maxEventBytes === undefined ? undefined : serialisedBytesOver(item, maxEventBytes);
  if (size !== undefined) return refuse(413, `${at} is ${size} bytes serialised, over the ${maxEventBytes} byte limit`);

  const { event } = item;
  if (typeof event !== 'string') return refuse(400, `${at}: event must be a non-empty string, got ${describeType(event)}`);
  if (event === '') return refuse(400, `${at}: event name is empty`);

  const properties = hasOwn(item, 'properties') ? item.properties : {};
  if (!isPlainObject(properties)) return refuse(400, `${at}: properties must be an object, got ${describeType(properties)}`);

  const distinctId = resolveDistinctId(item, properties);
  if (distinctId === undefined) return refuse(400, `${at}: distinct_id is missing`);
  if (typeof distinctId !== 'string') {
    return refuse(400, `${at}: distinct_id must be a string, got ${describeType(distinctId)}`);
  }
  if (distinctId.trim() === '') return refuse(400, `${at}: distinct_id is blank`);

  const timestamp = checkTimestamp(item.timestamp);
  if (timestamp !== undefined) return refuse(400, `${at}: ${timestamp}`);

  const { uuid } = item;
  if (!isAbsent(uuid) && (typeof uuid !== 'string' || !UUID_SHAPE.test(uuid))) {
    return refuse(400, `${at}: uuid ${JSON.stringify(uuid)} is not a UUID`);
  }

  for (const key of ['$set', '$set_once'] as const) {
    if (!isAbsent(item[key]) && !isPlainObject(item[key])) {
      return refuse(400, `${at}: ${key} must be an object, got ${describeType(item[key])}`);
    }
  }

  return { ok: true, fields: pickFields(item, event, distinctId, properties) };
}

/**
 * The item's size as UTF-8 JSON when that is over `limit`, else undefined. A UTF-16 unit is at most
 * 3 UTF-8 bytes, so a text of at most limit / 3 units is under the limit without counting its bytes
 * (counting them was a twentieth of the dev server's ingest time).
 */
function serialisedBytesOver(item: Record<string, unknown>, limit: number): number | undefined {
  const json = JSON.stringify(item);
  if (json.length * 3 <= limit) return undefined;
  const bytes = Buffer.byteLength(json);
  return bytes > limit ? bytes : undefined;
}

/** Where the user id may live, in the order the real server looks; null counts as not sent. */
function resolveDistinctId(item: Record<string, unknown>, properties: Record<string, unknown>): unknown {
  const candidates = [item.distinct_id, item.$distinct_id, properties.distinct_id, properties.$distinct_id];
  return candidates.find((candidate) => !isAbsent(candidate));
}

function checkTimestamp(timestamp: unknown): string | undefined {
  if (isAbsent(timestamp)) return undefined;
  if (typeof timestamp !== 'string') return `timestamp must be an ISO 8601 string, got ${describeType(timestamp)}`;
  if (timestamp.trim() === '' || Number.isNaN(Date.parse(timestamp))) {
    return `timestamp ${JSON.stringify(timestamp)} is not a parseable date`;
  }
  return undefined;
}

function pickFields(item: Record<string, unknown>, event: string, distinctId: string, properties: Record<string, unknown>): EventFields {
  const fields: EventFields = { event, distinct_id: distinctId, properties };
  if (typeof item.uuid === 'string') fields.uuid = item.uuid;
  if (typeof item.timestamp === 'string') fields.timestamp = item.timestamp;
  if (typeof item.sent_at === 'string') fields.sent_at = item.sent_at;
  if (isPlainObject(item.$set)) fields.$set = item.$set;
  if (isPlainObject(item.$set_once)) fields.$set_once = item.$set_once;
  return fields;
}
