/**
 * Build-time switches (Sentry's `__DEBUG_BUILD__` pattern): the lite script tag's minifier defines
 * `__LITE__` as true (rollup.config.js), so the code behind `!LITE` is dropped from it; everywhere
 * else (npm build, tests) the name is undefined and LITE is false.
 */
declare const __LITE__: boolean | undefined;

/** The lite script tag: no synchronous gzip encoder (beacons and browsers without CompressionStream send plain JSON). */
export const LITE = typeof __LITE__ !== 'undefined' && __LITE__;
