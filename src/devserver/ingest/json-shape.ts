/** Small predicates for picking apart untrusted JSON without casts. */

/** Core's object check under the name the devserver reads by; one definition for the whole package. */
export { isObject as isPlainObject } from '../../core/special-events';

/** Presence, not truthiness: the real server trips on a duplicated key even when one copy is null. */
export function hasOwn(value: Record<string, unknown>, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(value, key);
}

/** For error messages: "got number", "got null", "got an array". */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

/** JSON null means "not sent" for the real server's optional fields. */
export function isAbsent(value: unknown): value is undefined | null {
  return value === undefined || value === null;
}
