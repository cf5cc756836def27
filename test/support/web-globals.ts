// The globals a Cloudflare Worker or an Edge runtime gives a module: web APIs only (fetch, streams,
// CompressionStream, Web Crypto, timers), nothing of Node's (no require, process or Buffer). The
// edge tests and the packed-package Worker test run built code in a node:vm context holding these,
// so one list says what "a Worker's platform" means for both.
import { webcrypto } from 'node:crypto';

export function webGlobals(): Record<string, unknown> {
  return {
    fetch,
    Request,
    Response,
    Headers,
    AbortController,
    AbortSignal,
    URL,
    URLSearchParams,
    TextEncoder,
    TextDecoder,
    ReadableStream,
    WritableStream,
    TransformStream,
    CompressionStream,
    DecompressionStream,
    Blob,
    crypto: webcrypto,
    setTimeout,
    clearTimeout,
    queueMicrotask,
    structuredClone,
    console,
  };
}
