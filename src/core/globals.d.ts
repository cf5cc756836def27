/**
 * The few globals core uses, declared as narrowly as core uses them. Every platform hogtail runs on
 * has each one (browsers, Node 20+, Workers and edge runtimes, Deno, Bun), so core may call them;
 * anything else a platform offers (window, document, process, Buffer, node: modules, DOM types) is
 * a compile error here, because core type-checks with the ES2022 library alone
 * (src/core/tsconfig.json, run by `npm run typecheck`). The whole-project check uses the real DOM
 * and Node declarations instead of this file (tsconfig.json excludes it).
 */

/** A timer handle: a number in pages, an object with unref() in Node. */
interface CoreTimer {
  readonly __coreTimer?: never;
}
// `never[]`: a callback that takes an argument (a promise's resolve) is called without one.
declare function setTimeout(callback: (...args: never[]) => void, ms?: number): CoreTimer;
declare function clearTimeout(handle: CoreTimer | undefined): void;
declare function queueMicrotask(callback: () => void): void;

declare const console: {
  warn(...parts: unknown[]): void;
  debug(...parts: unknown[]): void;
};

declare const crypto: {
  getRandomValues<T extends Uint8Array | Uint32Array>(array: T): T;
};

declare class TextEncoder {
  encode(input?: string): Uint8Array;
}
declare class TextDecoder {
  decode(input?: Uint8Array, options?: { stream?: boolean }): string;
}

declare class URL {
  constructor(url: string, base?: string);
  readonly protocol: string;
  readonly search: string;
  readonly hash: string;
}

// fetch, as the fetch executor (fetch-executor.ts) calls the one it is handed.
interface AbortSignal {
  readonly aborted: boolean;
}
declare class AbortController {
  readonly signal: AbortSignal;
  abort(reason?: unknown): void;
}
type BodyInit = string | Uint8Array;
interface RequestInit {
  method?: string;
  headers?: Record<string, string>;
  body?: BodyInit;
  signal?: AbortSignal;
  keepalive?: boolean;
}
interface ReadableStreamDefaultReader<R> {
  read(): Promise<{ done: true; value?: undefined } | { done: false; value: R }>;
  cancel(): Promise<void>;
}
interface ReadableStream<R> {
  getReader(): ReadableStreamDefaultReader<R>;
}
interface Response {
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  readonly body: ReadableStream<Uint8Array> | null;
  text(): Promise<string>;
}
