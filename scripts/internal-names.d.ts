// Types for internal-names.js (imported by the TypeScript test that checks the convention).
export declare const INTERNAL_NAME: RegExp;
export declare const SERVER_PUBLIC_NAMES: readonly string[];
export declare const MANGLED_PROPERTY: RegExp;
