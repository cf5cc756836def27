// Types of clean-pack.js for the TypeScript tests that use it (test/support/packed.ts).
export declare const repoRoot: string;
export declare function cleanCopy(): string;
export declare function packClean(destination: string, options?: { live?: boolean; env?: Record<string, string> }): Promise<{ tarball: string; copy: string }>;
export declare function takeDist(copy: string): void;
