/**
 * Exceptions as posthog-js has them (full build): captureException() sends `$exception` with
 * `$exception_list` (core/exceptions parses the stack), and capture_exceptions or
 * startExceptionAutocapture() capture the page's uncaught errors and unhandled rejections,
 * rate-limited per error type (exceptions.ts).
 */
import { track } from '../capture/capture';
import { exceptionEventProperties, exceptionKinds, startExceptionAutocapture, type ExceptionKinds } from './exceptions';
import type { Runtime } from '../runtime';
import type { Feature } from './feature';

/**
 * Frames on top of the app's when it calls client.captureException(): exceptionEventProperties,
 * the method below, the client's guard callback, the guard, the client's public wrapper (client.ts).
 */
const CAPTURE_EXCEPTION_SDK_FRAMES = 5;

/**
 * Exceptions as a feature: capture_exceptions starts the autocapture at init (before the app's
 * `loaded`, so its errors are heard too); the stop function is this client's own.
 */
export function exceptionsFeature(): Feature {
  let stop: (() => void) | undefined;
  /** `kinds`: what capture_exceptions picked; startExceptionAutocapture() (no option) takes the default. */
  const start = (rt: Runtime, kinds?: ExceptionKinds) => {
    stop ??= startExceptionAutocapture(
      window,
      (properties) => track(rt, '$exception', properties),
      (type) => {
        rt.queue_.countDrop('rate_limited'); // seen in stats().dropped.rate_limited
        rt.debug(`$exception (${type}) not captured (rate limited)`);
      },
      kinds,
    );
  };
  return {
    name: 'exceptions',
    options_: ['capture_exceptions'],
    methods_: {
      captureException: (rt, error, properties) =>
        track(rt, '$exception', exceptionEventProperties(error, properties, CAPTURE_EXCEPTION_SDK_FRAMES)),
      startExceptionAutocapture: (rt, config) => start(rt, config && exceptionKinds(config)),
      stopExceptionAutocapture() {
        stop?.();
        stop = undefined;
      },
    },
    setup(rt: Runtime) {
      if (rt.config_.capture_exceptions) start(rt, exceptionKinds(rt.config_.capture_exceptions));
    },
  };
}
