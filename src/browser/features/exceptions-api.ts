/**
 * Exceptions as posthog-js has them (full build): captureException() sends `$exception` with
 * `$exception_list` (core/exceptions parses the stack), and capture_exceptions or
 * startExceptionAutocapture() capture the page's uncaught errors and unhandled rejections,
 * rate-limited per error type (exceptions.ts).
 */
import { track } from '../capture/capture';
import { exceptionEventProperties, exceptionKinds, startExceptionAutocapture, type ExceptionKinds } from './exceptions';
import type { Methods, Runtime } from '../runtime';

/**
 * Frames on top of the app's when it calls client.captureException(): exceptionEventProperties,
 * the method below, the client's guard callback, the guard, the client's public wrapper (client.ts).
 */
const CAPTURE_EXCEPTION_SDK_FRAMES = 5;

/** `kinds`: what capture_exceptions picked; startExceptionAutocapture() (no option) takes the default. */
export function startExceptions(rt: Runtime, kinds?: ExceptionKinds): void {
  if (rt.stopExceptions) return;
  rt.stopExceptions = startExceptionAutocapture(
    window,
    (properties) => track(rt, '$exception', properties),
    (type) => {
      rt.queue.countDrop('rate_limited'); // seen in stats().dropped.rate_limited
      rt.debug(`$exception (${type}) not captured (rate limited)`);
    },
    kinds,
  );
}

export const exceptionMethods: Pick<Methods, 'captureException' | 'startExceptionAutocapture' | 'stopExceptionAutocapture'> = {
  captureException: (rt, error, properties) => track(rt, '$exception', exceptionEventProperties(error, properties, CAPTURE_EXCEPTION_SDK_FRAMES)),
  startExceptionAutocapture: (rt, config) => startExceptions(rt, config && exceptionKinds(config)),
  stopExceptionAutocapture(rt) {
    rt.stopExceptions?.();
    rt.stopExceptions = undefined;
  },
};
