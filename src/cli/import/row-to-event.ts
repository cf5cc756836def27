/**
 * Turns one source record into the event to send, or the reason it must not be sent. Every rule
 * that would make the server refuse the event (and with it the whole batch) or store it wrongly
 * forever (docs/wire-protocol.md, "Historical migration") is checked here, before anything leaves the machine.
 *
 * Where properties come from:
 * - a JSON record with a `properties` object (PostHog's export shape): that object, plus every
 *   other top-level field (`$set`, `$set_once`, elements_chain, …) it does not already have. Such a
 *   field might not be event data, but dropping it would lose what cannot be imported again
 *   (migrated events cannot be changed later), and a property is easy to ignore;
 * - any other record (flat JSON, every CSV row): every field that is not the event, distinct id or
 *   timestamp. CSV cells are strings; empty cells are left out (CSV cannot tell empty from absent),
 *   and `$set`, `$set_once`, `$group_set` and `$groups` cells hold JSON objects.
 * In both, the fields --map reads are used, not copied, and JSON's `uuid` is the event's uuid: a
 * re-import of the same export then repeats uuids the server has, so it can drop the duplicates.
 *
 * Those four are objects on the wire whatever feeds them: a column mapped onto one of them
 * (`--map '$set=traits'`) is parsed as JSON when it holds a string, and must give an object.
 */
import { isObject } from '../../core/special-events';
import { isUuid } from '../../core/uuid';
import { setProperty } from './own-property';
import { readField, type Mapping } from './mapping';
import { MAX_ROW_DEPTH, nestsDeeperThan } from './nesting-depth';
import { describeValue, normalizeTimestamp, type TimestampFormat } from './timestamp';
import { canonicalEventName, checkSpecialEvent } from './special-event-rules';

export interface MappedEvent {
  event: string;
  distinctId: string;
  /** Epoch milliseconds, validated. */
  timestamp: number;
  properties: Record<string, unknown>;
  /** The row's own `uuid` (JSON input); undefined: derive one from the source and row number. */
  uuid: string | undefined;
}

export type MapResult = { ok: true; value: MappedEvent } | { ok: false; reason: string };

const JSON_OBJECT_COLUMNS = new Set(['$set', '$set_once', '$group_set', '$groups']);
/** Top-level JSON fields that make the event itself rather than its properties. */
const ENVELOPE_KEYS = new Set(['event', 'distinct_id', '$distinct_id', 'timestamp', 'uuid', 'properties']);

/** A value for one of JSON_OBJECT_COLUMNS: an object, or a string holding one; else undefined. */
function jsonObjectOf(value: unknown): Record<string, unknown> | undefined {
  if (typeof value !== 'string') return isObject(value) ? value : undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export function createRowMapper(mapping: Mapping, timestampFormat: TimestampFormat, fromCsv: boolean) {
  const mappedColumns = new Set([mapping.event, mapping.distinctId, mapping.timestamp, ...mapping.properties.map(([, column]) => column)]);

  function collectProperties(record: Record<string, unknown>): Record<string, unknown> | string {
    const nested = record.properties;
    if (!fromCsv && nested !== undefined && !mappedColumns.has('properties')) {
      if (!isObject(nested)) return `properties must be an object; got ${describeValue(nested)}`;
      // The parsed object is ours (JSON.parse made it): use it as is instead of copying per row.
      for (const key in record) {
        if (ENVELOPE_KEYS.has(key) || mappedColumns.has(key) || Object.hasOwn(nested, key)) continue;
        setProperty(nested, key, record[key]);
      }
      return nested;
    }
    const properties: Record<string, unknown> = {};
    for (const key in record) {
      if (mappedColumns.has(key) || (!fromCsv && ENVELOPE_KEYS.has(key))) continue;
      const value = record[key];
      if (fromCsv) {
        if (value === '') continue;
        if (JSON_OBJECT_COLUMNS.has(key)) {
          const parsed = jsonObjectOf(value);
          if (parsed === undefined) return `column ${key} must hold a JSON object; got ${describeValue(value)}`;
          setProperty(properties, key, parsed);
          continue;
        }
      }
      setProperty(properties, key, value);
    }
    return properties;
  }

  return function mapRow(record: unknown): MapResult {
    if (!isObject(record)) return { ok: false, reason: `a row must be an object; got ${describeValue(record)}` };
    if (nestsDeeperThan(record, MAX_ROW_DEPTH)) {
      return {
        ok: false,
        reason: `nested more than ${MAX_ROW_DEPTH} levels deep; the server cannot read JSON this deep (flatten the deepest values)`,
      };
    }

    const name = readField(record, mapping.event);
    if (typeof name !== 'string' || name.trim() === '') {
      return { ok: false, reason: `event name (${mapping.event}) is missing or blank; got ${describeValue(name)}` };
    }
    const event = canonicalEventName(name);

    let distinctId = readField(record, mapping.distinctId);
    if (!mapping.distinctIdMapped && (distinctId === undefined || distinctId === null)) {
      const nested = isObject(record.properties) ? record.properties : {};
      distinctId = record.$distinct_id ?? nested.distinct_id ?? nested.$distinct_id;
    }
    if (typeof distinctId === 'number' && Number.isFinite(distinctId)) distinctId = String(distinctId);
    if (typeof distinctId !== 'string' || distinctId.trim() === '') {
      return { ok: false, reason: `distinct id (${mapping.distinctId}) is missing or blank; got ${describeValue(distinctId)}` };
    }

    const time = normalizeTimestamp(readField(record, mapping.timestamp), timestampFormat);
    if (!time.ok) return time;

    let uuid: string | undefined;
    const ownUuid = fromCsv ? undefined : record.uuid;
    if (ownUuid !== undefined && ownUuid !== null && ownUuid !== '') {
      if (!isUuid(ownUuid)) {
        return {
          ok: false,
          reason: `uuid ${describeValue(ownUuid)} is not a UUID; correct it, or remove the field to have one derived from the row`,
        };
      }
      uuid = ownUuid;
    }

    const properties = collectProperties(record);
    if (typeof properties === 'string') return { ok: false, reason: properties };
    for (const [name, column] of mapping.properties) {
      const value = readField(record, column);
      if (value === undefined || (fromCsv && value === '')) continue;
      if (JSON_OBJECT_COLUMNS.has(name)) {
        const parsed = jsonObjectOf(value);
        if (parsed === undefined)
          return { ok: false, reason: `column ${column} (mapped to ${name}) must hold a JSON object; got ${describeValue(value)}` };
        setProperty(properties, name, parsed);
      } else {
        setProperty(properties, name, value);
      }
    }

    const special = checkSpecialEvent(event, properties);
    if (special !== undefined) return { ok: false, reason: special };
    return { ok: true, value: { event, distinctId, timestamp: time.ms, properties, uuid } };
  };
}

export type RowMapper = ReturnType<typeof createRowMapper>;
