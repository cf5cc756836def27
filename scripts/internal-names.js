// The naming convention that lets the script tags' minifier shorten property names
// (docs/architecture.md, "Internal names"): a member whose name ends in `_` is internal to
// hogtail's own bundle (never public API, persisted, sent on the wire or read across separately
// minified files), so terser may rename it. Every other property keeps its name.
// rollup.config.mjs mangles by this; test/scripts/internal-names.test.ts checks that no public,
// wire, storage or cross-bundle name matches it.
export const INTERNAL_NAME = /^[A-Za-z][\w$]*_$/;
