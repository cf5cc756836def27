/**
 * Small predicates for picking apart untrusted JSON without casts. The object, type and absence
 * checks have one home in core, shared with the flag engine; only the duplicate-key check is the
 * ingestion rules' own.
 */
export { describeType, isAbsent, isPlainObject } from '../../core/flag-engine/json-shape';

/** Presence, not truthiness: the real server trips on a duplicated key even when one copy is null. */
export function hasOwn(value: Record<string, unknown>, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(value, key);
}
