/**
 * `--map event=col,distinct_id=col,timestamp=col[,prop=col…]`: which source fields hold the event
 * name, the user and the time. Any other `name=col` pair copies a column into property `name`
 * (e.g. `$current_url=url` for pageviews). A column may be a dotted path into nested JSON
 * (`user.id`) when no top-level key has that exact name.
 */
import { UsageError } from '../common/flags';

export interface Mapping {
  event: string;
  distinctId: string;
  timestamp: string;
  /** Whether distinct_id was mapped explicitly (then no fallback to $distinct_id or properties). */
  distinctIdMapped: boolean;
  /** [property name, source column] */
  properties: Array<[string, string]>;
}

export const DEFAULT_MAPPING: Mapping = {
  event: 'event',
  distinctId: 'distinct_id',
  timestamp: 'timestamp',
  distinctIdMapped: false,
  properties: [],
};

export function parseMapping(specs: readonly string[]): Mapping {
  const mapping: Mapping = { ...DEFAULT_MAPPING, properties: [] };
  const seen = new Set<string>();
  for (const spec of specs) {
    for (const pair of spec.split(',')) {
      if (pair.trim() === '') continue;
      const eq = pair.indexOf('=');
      const target = pair.slice(0, eq).trim();
      const column = pair.slice(eq + 1).trim();
      if (eq === -1 || target === '' || column === '') {
        throw new UsageError(
          `--map takes name=column pairs separated by commas, e.g. event=action,distinct_id=user; got ${JSON.stringify(pair)}`,
        );
      }
      if (seen.has(target)) throw new UsageError(`--map sets ${target} twice`);
      seen.add(target);
      if (target === 'event') mapping.event = column;
      else if (target === 'distinct_id') {
        mapping.distinctId = column;
        mapping.distinctIdMapped = true;
      } else if (target === 'timestamp') mapping.timestamp = column;
      else mapping.properties.push([target, column]);
    }
  }
  return mapping;
}

/** A top-level key, else a dotted path into nested objects. */
export function readField(record: Record<string, unknown>, column: string): unknown {
  if (column in record) return record[column];
  if (!column.includes('.')) return undefined;
  let value: unknown = record;
  for (const part of column.split('.')) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}
