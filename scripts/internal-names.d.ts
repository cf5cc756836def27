// Types for internal-names.js (imported by the TypeScript test that checks the convention).
export declare const INTERNAL_NAME: RegExp;
