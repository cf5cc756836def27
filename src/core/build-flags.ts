/**
 * Build-time constants (Sentry's `__DEBUG_BUILD__` pattern). The browser bundles define
 * `__HOGTAIL_BROWSER_BUILD__` as true in rollup's minifier, which then drops every branch written
 * under `!BROWSER_BUILD` from the script tag. Everywhere else (Node, edge, tests run from source)
 * the identifier is undefined and the full code runs.
 */
declare const __HOGTAIL_BROWSER_BUILD__: boolean | undefined;

export const BROWSER_BUILD: boolean = typeof __HOGTAIL_BROWSER_BUILD__ !== 'undefined' && __HOGTAIL_BROWSER_BUILD__ === true;
