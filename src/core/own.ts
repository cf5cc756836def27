/**
 * Records keyed by text that comes from outside: flag keys, variant keys, group types, cohort ids.
 * A plain object inherits `constructor`, `toString` and the `__proto__` accessor from
 * Object.prototype, so an unchecked read finds a native function for a flag nobody defined, and
 * `record['__proto__'] = value` replaces the prototype instead of storing an entry. Every such read
 * and write goes through these.
 */

/** The record's own entry for `key`; never an inherited member. */
export function ownValue<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && hasOwn(record, key) ? record[key] : undefined;
}

/**
 * Whether the record itself holds `key`. (`{}.hasOwnProperty` is Object.prototype's, spelled short
 * for the script tag; `Object.hasOwn` is missing from browsers older than 2022.)
 */
export const hasOwn = (record: object, key: string): boolean => ({}).hasOwnProperty.call(record, key);

/** Stores an entry under any key, `__proto__` included (a plain assignment would set the prototype). */
export function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}
