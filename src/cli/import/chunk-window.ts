/**
 * The chunks that are read but not yet acknowledged, settled strictly in order as the server
 * acknowledges them. Settling a chunk moves the checkpoint past it (and writes its rejects), and
 * it happens as soon as the chunk's request is answered, not when the reader next needs room, so
 * the checkpoint follows every acknowledged request.
 *
 * The window also bounds memory: the reader waits (makeRoom) while too many chunks, or too many
 * characters of them, are open.
 */
import type { Chunk } from './delivery';

/** Open chunks beyond these wait: bounds memory whatever the file size. */
const MAX_OPEN_CHUNKS = 4;
const MAX_OPEN_CHARS = 32 * 1024 * 1024;

export interface ChunkWindowOptions {
  /** Resolves true once every row of the chunk is acknowledged, false when delivery failed. */
  acknowledge(chunk: Chunk): Promise<boolean>;
  /** Records an acknowledged chunk (rejects file, counters, checkpoint). */
  settle(chunk: Chunk): Promise<void>;
}

export interface ChunkWindow {
  /** A closed chunk: all its rows are read and handed to the client. */
  push(chunk: Chunk): void;
  /** Closed chunks not yet settled, oldest first. */
  readonly open: readonly Chunk[];
  /** Waits while the window is full; false when delivery failed. Throws what settling threw. */
  makeRoom(): Promise<boolean>;
  /** Waits until every chunk is settled; false when delivery failed. Throws what settling threw. */
  drain(): Promise<boolean>;
}

export function createChunkWindow(options: ChunkWindowOptions): ChunkWindow {
  const chunks: Chunk[] = [];
  let running = false;
  let failed = false;
  let error: { value: unknown } | undefined;
  let waiters: Array<() => void> = [];

  function notify(): void {
    const woken = waiters;
    waiters = [];
    for (const wake of woken) wake();
  }

  const changed = (): Promise<void> => new Promise((resolve) => waiters.push(resolve));

  async function settleInOrder(): Promise<void> {
    if (running) return;
    running = true;
    try {
      while (chunks.length > 0 && !failed) {
        const oldest = chunks[0]!;
        if (!(await options.acknowledge(oldest))) {
          failed = true;
          break;
        }
        await options.settle(oldest);
        chunks.shift();
        notify();
      }
    } catch (thrown) {
      error ??= { value: thrown };
    } finally {
      running = false;
      notify();
    }
  }

  async function waitUntil(done: () => boolean): Promise<boolean> {
    while (!failed && error === undefined && !done()) await changed();
    if (error !== undefined) throw error.value;
    return !failed;
  }

  const openChars = (): number => chunks.reduce((sum, chunk) => sum + chunk.chars, 0);

  return {
    push(chunk) {
      chunks.push(chunk);
      void settleInOrder();
    },
    open: chunks,
    makeRoom: () => waitUntil(() => chunks.length <= MAX_OPEN_CHUNKS && openChars() <= MAX_OPEN_CHARS),
    drain: () => waitUntil(() => chunks.length === 0),
  };
}
