/**
 * `hogtail/node`: the server client on Node (node:http, zlib, file persistence, exit hooks), with
 * posthog-node's class name and option names, and its error and message types.
 */
export { PostHog, PostHog as Hogtail } from './client';
export type { PostHogOptions } from './options';
export * from '../core/server/entry-exports';
export { PersistenceError } from './persistence/errors';
export type { PersistenceProblem } from './persistence/errors';
export type { FilePersistenceOptions, PersistenceOption } from './persistence/options';
