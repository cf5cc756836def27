/**
 * posthog-node's request context (`withContext`, `enterContext`, `getContext`): who the current
 * request is for, so a handler's `capture()` needs no `distinctId`. Core only merges contexts; the
 * store that follows async calls is the platform's (AsyncLocalStorage on Node), because core may
 * not import `node:` modules. A platform without one (the edge client) hands in none.
 */

export interface ContextData {
  distinctId?: string;
  sessionId?: string;
  /** Added to every event captured in the context (an event's own properties win). */
  properties?: Record<string, unknown>;
}

export interface ContextOptions {
  /** Start from nothing instead of inheriting the enclosing context. */
  fresh?: boolean;
}

/** Follows the async calls of one request (Node's AsyncLocalStorage). */
export interface ContextStore {
  get(): ContextData | undefined;
  run<T>(data: ContextData, fn: () => T): T;
  enter(data: ContextData): void;
}

/** The context `data` makes inside `current`, as posthog-node merges them (inner values win, properties merge). */
export function mergeContext(current: ContextData | undefined, data: Partial<ContextData>, options?: ContextOptions): ContextData {
  if (options?.fresh === true || current === undefined) return { ...data, properties: { ...data.properties } };
  return {
    distinctId: data.distinctId ?? current.distinctId,
    sessionId: data.sessionId ?? current.sessionId,
    properties: { ...current.properties, ...data.properties },
  };
}

/** The message as it is captured in `context`: its distinct id when it names none, the context's properties under its own, `$session_id`. */
export function messageInContext<M extends { distinctId?: unknown; properties?: unknown }>(
  message: M,
  context: ContextData | undefined,
): M {
  if (context === undefined || message === null || typeof message !== 'object') return message;
  const own = message.properties;
  const properties: Record<string, unknown> = { ...context.properties, ...(own !== null && typeof own === 'object' ? own : {}) };
  if (context.sessionId !== undefined && properties.$session_id === undefined) properties.$session_id = context.sessionId;
  return { ...message, distinctId: message.distinctId ?? context.distinctId, properties };
}
