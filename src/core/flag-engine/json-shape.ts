/** Small predicates for picking apart untrusted JSON without casts. */

/** A JSON object (not null, not an array): core's one object check, under the name JSON readers use. */
export { isObject as isPlainObject } from '../special-events';

/** For error messages: "got number", "got null", "got an array". */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

/** JSON null means "not sent" for PostHog's optional fields. */
export function isAbsent(value: unknown): value is undefined | null {
  return value === undefined || value === null;
}
