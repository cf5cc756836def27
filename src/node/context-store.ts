/**
 * The request context's store on Node: AsyncLocalStorage follows a request through its awaits and
 * callbacks, so `withContext({ distinctId }, handler)` reaches every capture the handler makes.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ContextData, ContextStore } from '../core/server/request-context';

export function createContextStore(): ContextStore {
  const storage = new AsyncLocalStorage<ContextData>();
  return {
    get: () => storage.getStore(),
    run: (data, fn) => storage.run(data, fn),
    enter: (data) => storage.enterWith(data),
  };
}
