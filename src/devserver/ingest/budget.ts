/**
 * A server-wide allowance of request bytes held in memory at once: wire bodies as they arrive and
 * gzip output as it inflates. One request's caps do not bound the process, since any web page can
 * post many small gzip bodies that each inflate near the cap at the same time; past the allowance a
 * request is answered 503 (retry later) instead of the process running out of memory.
 */

export interface ByteBudget {
  /** Takes `bytes` if they fit in what is left; false (taking nothing) if not. */
  take(bytes: number): boolean;
  release(bytes: number): void;
  readonly inUse: number;
}

/** Enough for a few requests at the per-request inflation cap, far below a default Node heap. */
export const DEFAULT_MAX_IN_FLIGHT_BYTES = 384 * 1024 * 1024;

export function createByteBudget(limit = DEFAULT_MAX_IN_FLIGHT_BYTES): ByteBudget {
  let inUse = 0;
  return {
    take(bytes) {
      if (inUse + bytes > limit) return false;
      inUse += bytes;
      return true;
    },
    release(bytes) {
      inUse = Math.max(0, inUse - bytes);
    },
    get inUse() {
      return inUse;
    },
  };
}

/** One request's share of the budget, given back whole when the request is done with its bytes. */
export interface BudgetLease {
  take(bytes: number): boolean;
  releaseAll(): void;
}

export function leaseFrom(budget: ByteBudget): BudgetLease {
  let held = 0;
  return {
    take(bytes) {
      if (!budget.take(bytes)) return false;
      held += bytes;
      return true;
    },
    releaseAll() {
      budget.release(held);
      held = 0;
    },
  };
}

export const BUSY_REASON = 'the collector is holding too many request bytes at once; retry shortly';
