/**
 * Path parameters and query values, checked before they reach a URL. A path parameter is
 * percent-encoded as one segment, and `.`/`..` are refused outright: URL parsing would resolve them
 * and send the request, with its key, to a different endpoint than the one the caller named.
 */
import type { QueryParams } from './types';

export function segment(value: unknown, name: string): string {
  if (typeof value === 'number') {
    if (!Number.isInteger(value) || value < 0) throw new TypeError(`${name} must be a non-negative integer or a string, got ${value}`);
    return String(value);
  }
  if (typeof value !== 'string') throw new TypeError(`${name} must be a string or a number, got ${typeof value}`);
  if (value === '' || value === '.' || value === '..') {
    throw new TypeError(`${name} must be a non-empty path segment other than "." or "..", got ${JSON.stringify(value)}`);
  }
  return encodeURIComponent(value);
}

export function requireInteger(value: unknown, name: string, min: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new TypeError(`${name} must be an integer ≥ ${min}, got ${describe(value)}`);
  }
  return value;
}

export function optionalInteger(value: unknown, name: string, min: number): number | undefined {
  return value === undefined ? undefined : requireInteger(value, name, min);
}

export function requireString(value: unknown, name: string): string {
  if (typeof value !== 'string' || value === '') throw new TypeError(`${name} must be a non-empty string, got ${describe(value)}`);
  return value;
}

export function optionalString(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new TypeError(`${name} must be a string, got ${describe(value)}`);
  return value;
}

/** Serialises query values, leaving out undefined ones. */
export function toSearchParams(query: QueryParams | URLSearchParams | undefined): URLSearchParams {
  if (query instanceof URLSearchParams) return query;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined) params.append(name, String(value));
  }
  return params;
}

function describe(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}
