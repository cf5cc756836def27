// Kept in step with package.json by test/core/version.test.ts; a constant avoids build-time magic.
export const LIB_VERSION = '0.1.0';
