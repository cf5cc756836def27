/** Small predicates for picking apart untrusted JSON without casts. */

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

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
