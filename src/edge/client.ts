/**
 * The edge client (`hogtail/edge`): the same server client as `hogtail/node`, on web APIs only
 * (fetch, CompressionStream, Web Crypto), for Cloudflare Workers, Vercel Edge and Next.js
 * middleware, Deno and Bun. No node: import, no `process`, no file persistence. Local flag
 * evaluation works as on Node, with a sha1 of its own (sha1.ts). A worker may be frozen once its
 * response is sent, so await `flush()` (or hand it to `waitUntil`) per request; the definitions
 * poll runs while the worker runs.
 */
import { exceptionEvent } from '../core/exceptions/exception-event';
import { HogtailError } from '../core/errors';
import { createFetchExecutor } from '../core/fetch-executor';
import { PostHogServerClient } from '../core/server/posthog-client';
import type { ServerOptions } from '../core/server/options';
import { gzipWithCompressionStream } from './gzip';
import { sha1Hex } from './sha1';

export type PostHogOptions = ServerOptions;

/** Node-only options a ported app may still pass: said once, by name, never silently ignored. */
const NODE_ONLY = ['persistence', 'flushOnExitTimeout', 'enableExceptionAutocapture'] as const;

export class PostHog extends PostHogServerClient {
  constructor(apiKey: string, options: PostHogOptions = {}) {
    const problems: string[] = [];
    for (const name of NODE_ONLY) {
      if (options && name in options)
        problems.push(`${name} is not available in hogtail/edge (Node only: files and process hooks); ignored`);
    }
    super(apiKey, options ?? {}, problems, () => ({
      lib: 'hogtail-edge',
      executor: createFetchExecutor((url, init) => fetch(url, init)),
      gzip: gzipWithCompressionStream,
      sha1: sha1Hex,
      release() {},
    }));
  }

  /**
   * posthog-node's captureException: a `$exception` event (PostHog's error-tracking shape, causes
   * included) as `distinctId` or, without one, a personless id; `uuid` for an idempotent resend.
   */
  captureException(error: unknown, distinctId?: string, additionalProperties?: Record<string, unknown>, uuid?: string): void {
    try {
      const mechanism = { type: 'generic', handled: true };
      this.capture({ ...exceptionEvent(error, distinctId, additionalProperties, mechanism, new Error().stack), uuid });
    } catch (problem) {
      this.reporter.report(new HogtailError(`captureException() failed: ${String(problem)}`));
    }
  }

  /** captureException, settling once that event is delivered (or rejecting with its drop). */
  captureExceptionImmediate(error: unknown, distinctId?: string, additionalProperties?: Record<string, unknown>): Promise<void> {
    return this.immediately(() => this.captureException(error, distinctId, additionalProperties));
  }
}
