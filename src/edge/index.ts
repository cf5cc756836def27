/**
 * `hogtail/edge`: the same server client on web APIs only (fetch, CompressionStream, Web Crypto),
 * for Workers, Vercel Edge, Deno and Bun's web mode: no node: import, no process, no file persistence.
 */
export { PostHog, PostHog as Hogtail } from './client';
export type { PostHogOptions } from './client';
export * from '../core/server/entry-exports';
