/**
 * Decoding a URL path segment. `decodeURIComponent` throws on a `%` that starts no escape (`%zz`,
 * `50%off`); any client can send such a path, and a throw there would be a 500 (or worse) instead of
 * an answer. Every route of the dev server that decodes a path part uses this.
 */

/** The decoded segment, or undefined when it is not valid percent-encoding. */
export function decodePathSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
