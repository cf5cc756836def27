/**
 * Build-time switches (Sentry's `__DEBUG_BUILD__` pattern): the lite script tag's minifier defines
 * `__LITE__` as true (rollup.config.js), so the code behind `!LITE` is dropped from it; everywhere
 * else (npm build, tests) the name is undefined and LITE is false.
 */
declare const __LITE__: boolean | undefined;

/** The lite script tag: no cookieless mode or consent gate (see iife-lite.ts for what else it leaves out). */
export const LITE = typeof __LITE__ !== 'undefined' && __LITE__;
