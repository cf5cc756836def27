// Types of shared-chromium.js, for the TypeScript tests that use it (test/e2e/support/chromium.ts).
export declare const CHROMIUM_ARGS: readonly string[];
export declare const ENDPOINT_VARIABLE: string;
export declare function startSharedChromium(): Promise<() => Promise<void>>;
