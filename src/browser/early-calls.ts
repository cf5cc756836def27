/**
 * Calls made before init(), kept in order for init() to run, as the official snippet's stub keeps
 * them. Bounded: a page that never calls init() must not grow memory forever.
 */
export interface EarlyCalls {
  /** False when the list is full (the caller reports the refused call). */
  keep(name: string, args: unknown[]): boolean;
  /** Hands every kept call to `run`, oldest first, and forgets them. */
  drain(run: (name: string, args: unknown[]) => void): void;
}

const MAX_EARLY_CALLS = 1_000;

export function createEarlyCalls(): EarlyCalls {
  const calls: [string, unknown[]][] = [];
  return {
    keep: (name, args) => calls.length < MAX_EARLY_CALLS && calls.push([name, args]) > 0,
    drain(run) {
      for (const [name, args] of calls.splice(0)) run(name, args);
    },
  };
}
