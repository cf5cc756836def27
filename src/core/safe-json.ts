/**
 * Serialises event properties that came from arbitrary application code.
 *
 * The fast path is a plain JSON.stringify, which already normalises what JSON cannot carry the way
 * the server expects (NaN and Infinity become null, Dates their ISO string, functions and
 * undefined vanish). It throws only for circular references and BigInt; then a slower walk
 * replaces those and says where they were, so the event is still delivered.
 */
import { textOf } from './text-of';

export interface SerializedValue {
  json: string;
  /** Human-readable notes about what was changed, e.g. `properties.self: circular reference`. */
  notes: string[];
}

export function serializeProperties(value: object, path = 'properties'): SerializedValue {
  const notes: string[] = [];
  // The objects being walked, outermost first: meeting one again is a cycle; meeting it elsewhere
  // (a shared, not circular, reference) is not.
  const ancestors: unknown[] = [];
  const walk = (value: unknown, at: string): unknown => {
    try {
      const toJSON = (value as { toJSON?: unknown } | null)?.toJSON;
      if (typeof toJSON === 'function') value = toJSON.call(value);
    } catch (error) {
      notes.push(`${at}: toJSON() threw (${textOf(error)}); sent as null`);
      return null;
    }
    if (typeof value === 'bigint') {
      notes.push(`${at}: BigInt sent as a string`);
      return String(value);
    }
    if (value === null || typeof value !== 'object') return value;
    if (ancestors.includes(value)) {
      notes.push(`${at}: circular, sent as "[Circular]"`);
      return '[Circular]';
    }
    ancestors.push(value);
    // Array items are named like keys (`properties.list.1`): one rule, fewer bytes in the script tag.
    // No prototype: a `__proto__` key is a plain property, not a prototype change (arrays stay arrays).
    const out: Record<string, unknown> = Object.setPrototypeOf(Array.isArray(value) ? [] : {}, null);
    for (const key of Object.keys(value)) out[key] = walk((value as Record<string, unknown>)[key], at + '.' + key);
    ancestors.pop();
    return out;
  };
  // A throw (cycle, BigInt, a throwing toJSON) takes the walk; so does undefined (a toJSON that
  // returned nothing), which the walk turns into the same undefined.
  return { json: attempt(() => JSON.stringify(value), undefined) ?? JSON.stringify(walk(value, path)), notes };
}

/** `fn()`, or `fallback` when it throws: one helper for the many "may throw, never mind" calls. */
export function attempt<T, F>(fn: () => T, fallback: F): T | F {
  try {
    return fn();
  } catch {
    return fallback;
  }
}
