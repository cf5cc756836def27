// Types of find-chromium.js, for the TypeScript tests that import it.
export declare const CHROMIUM_VARIABLES: readonly string[];
export declare const CHROMIUM_PATHS: readonly string[];
export type ChromiumSearch = { path: string; source: string; problem?: undefined } | { path?: undefined; source?: undefined; problem: string };
export declare function findChromium(env?: Record<string, string | undefined>, exists?: (path: string) => boolean): ChromiumSearch;
