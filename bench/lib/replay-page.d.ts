// Types of replay-page.js, for the TypeScript tests that import it.
export declare const BLOCKED_TEXT: string;
export declare const MASKED_TEXT: string;
export declare function replayPage(head: string): string;
