/**
 * The edge client (`hogtail/edge`): the same server client as `hogtail/node`, on web APIs only
 * (fetch, CompressionStream, Web Crypto), for Cloudflare Workers, Vercel Edge and Next.js
 * middleware, Deno and Bun. No node: import, no `process`, no file persistence. A worker may be
 * frozen once its response is sent, so await `flush()` (or hand it to `waitUntil`) per request.
 */
import { createFetchExecutor } from '../core/fetch-executor';
import { ServerClient } from '../core/server/client';
import type { FetchLike, ServerOptions } from '../core/server/options';
import { gzipWithCompressionStream } from './gzip';

export type PostHogOptions = ServerOptions;

/** Node-only options a ported app may still pass: said once, by name, never silently ignored. */
const NODE_ONLY = ['persistence', 'flushOnExitTimeout', 'enableExceptionAutocapture', 'personalApiKey', 'featureFlagsPollingInterval', 'strictLocalEvaluation'] as const;

export class PostHog extends ServerClient {
  constructor(apiKey: string, options: PostHogOptions = {}) {
    const problems: string[] = [];
    for (const name of NODE_ONLY) {
      if (options && name in options) problems.push(`${name} is not available in hogtail/edge (Node only: files, process hooks, local flag evaluation); ignored`);
    }
    super(apiKey, options ?? {}, problems, () => ({
      lib: 'hogtail-edge',
      executor: createFetchExecutor(((url, init) => fetch(url, init as RequestInit)) as FetchLike),
      gzip: gzipWithCompressionStream,
      release() {},
    }));
  }
}
