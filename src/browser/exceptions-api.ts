/**
 * Exceptions as posthog-js has them (full build): captureException() sends `$exception` with
 * `$exception_list` (core/exceptions parses the stack), and capture_exceptions or
 * startExceptionAutocapture() capture the page's uncaught errors and unhandled rejections,
 * rate-limited per error type (exceptions.ts).
 */
import { track } from './capture';
import { exceptionEventProperties, startExceptionAutocapture } from './exceptions';
import type { Methods, Runtime } from './runtime';

/** The stop function of each client's running autocapture. */
const running = new WeakMap<Runtime, () => void>();

export function startExceptions(rt: Runtime): void {
  if (running.has(rt)) return;
  const stop = startExceptionAutocapture(
    window,
    (properties) => track(rt, '$exception', properties),
    (type) => rt.debug(`$exception (${type}) not captured: more of this type than the rate limit lets through`),
  );
  running.set(rt, stop);
}

export const exceptionMethods: Pick<Methods, 'captureException' | 'startExceptionAutocapture' | 'stopExceptionAutocapture' | 'addExceptionStep'> = {
  captureException: (rt, error, properties) => track(rt, '$exception', exceptionEventProperties(error, properties)),
  startExceptionAutocapture: startExceptions,
  stopExceptionAutocapture(rt) {
    running.get(rt)?.();
    running.delete(rt);
  },
  addExceptionStep: (rt) => rt.warn('exception steps', 'addExceptionStep(): exception steps are not part of hogtail; nothing happens'),
};
