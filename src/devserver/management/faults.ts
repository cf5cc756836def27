/**
 * Fault modes, so clients can be tested against the failures a real deployment produces: rate
 * limiting, an unavailable backend, and a request that never gets an answer.
 */

export interface ManagementFaults {
  /** Answer the next `count` requests with 429 and this Retry-After (delta seconds or an HTTP date). Default "1". */
  rateLimit?: { count: number; retryAfter?: string };
  /** Answer the next N requests with 503 (plain text, as a load balancer would). */
  unavailable?: number;
  /** Accept the next N requests and never answer them, until the server closes. */
  stall?: number;
}

export type Fault = { kind: 'none' } | { kind: 'rate_limit'; retryAfter: string } | { kind: 'unavailable' } | { kind: 'stall' };

export interface FaultState {
  /** Replaces every fault counter; `set({})` clears them. */
  set(faults: ManagementFaults): void;
  /** The fault the next request gets, consuming one from its counter. */
  take(): Fault;
}

export function createFaultState(): FaultState {
  let stall = 0;
  let unavailable = 0;
  let rateLimit = 0;
  let retryAfter = '1';
  return {
    set(faults) {
      stall = Math.max(0, faults.stall ?? 0);
      unavailable = Math.max(0, faults.unavailable ?? 0);
      rateLimit = Math.max(0, faults.rateLimit?.count ?? 0);
      retryAfter = faults.rateLimit?.retryAfter ?? '1';
    },
    take() {
      if (stall > 0) {
        stall--;
        return { kind: 'stall' };
      }
      if (unavailable > 0) {
        unavailable--;
        return { kind: 'unavailable' };
      }
      if (rateLimit > 0) {
        rateLimit--;
        return { kind: 'rate_limit', retryAfter };
      }
      return { kind: 'none' };
    },
  };
}
