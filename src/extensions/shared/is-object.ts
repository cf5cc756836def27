/**
 * A plain object (not null, not an array): how the extensions read posthog-js's options and the
 * remote config, where a key may be a boolean, an object of settings, or anything a server sent.
 */
export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
