// The naming convention that lets the script tags' minifier shorten property names
// (docs/architecture.md, "Internal names"): a member whose name ends in `_` is internal to
// hogtail's own bundle (never public API, persisted, sent on the wire or read across separately
// minified files), so terser may rename it. Every other property keeps its name, but for the few
// below. rollup.config.mjs mangles by both; test/scripts/internal-names.test.ts checks that no
// public, wire, storage or cross-bundle name of the browser matches either.
export const INTERNAL_NAME = /^[A-Za-z][\w$]*_$/;

/**
 * Names that cannot carry the suffix because they are public in the server clients' API (a
 * custom `executor`'s HttpRequest and HttpResponse, the `retry` options, flags' person and group
 * properties) or shared by core's transport with them, yet are internal to the script tags,
 * where they occur often enough to be worth shortening. At most 20 (issue #29); renaming core's
 * internal ones (`kind`, `json`, `countDrop`…) to the convention would shorten this list.
 */
export const SERVER_PUBLIC_NAMES = [
  'timeoutMs',
  'maxResponseBytes',
  'truncated',
  'contentType',
  'retryAfter',
  'retryAfterMs',
  'initialDelayMs',
  'maxDelayMs',
  'maxAttempts',
  'maxRetryAfterMs',
  'personProperties',
  'groupProperties',
  'kind',
  'json',
  'countDrop',
  'apiKey',
  'executor',
  'compress',
  'misconfigured',
  'keepaliveMaxChars',
];

/** What the browser bundles' minifier may shorten: the convention, and the names above. */
export const MANGLED_PROPERTY = new RegExp(`^(?:[A-Za-z][\\w$]*_|${SERVER_PUBLIC_NAMES.join('|')})$`);
