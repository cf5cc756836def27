/**
 * Exceptions in the browser: `$exception` properties for captureException(), and a starter for
 * `capture_exceptions` that listens to the window's `error` and `unhandledrejection` events.
 *
 * Listening (not wrapping window.onerror) leaves the page's own handlers and the console untouched.
 * A bubbling `error` listener on the window hears script errors only: resource load failures
 * (a broken <img>) do not bubble. Autocapture is rate-limited per error type, as posthog-js does,
 * so a throw loop sends a few events, not thousands; drops go to `onRateLimited` to be counted.
 * A separate module, so the lite script tag leaves it (and the stack parser) out.
 */
import { createExceptionRateLimiter, exceptionProperties, type ExceptionProperties } from '../core/exceptions';

/** captureException(error, properties): the stack of this call stands in for a value that has none. */
export function exceptionEventProperties(error: unknown, properties?: Record<string, unknown>, handled = true): ExceptionProperties {
  return {
    // Two SDK frames sit on top of the app's: this function and the client method that called it.
    ...exceptionProperties(error, { platform: 'web:javascript', mechanism: { handled }, syntheticStack: new Error().stack, syntheticSkip: 2 }),
    ...properties,
  };
}

/** What an `error` event carries: the thrown value, else (cross-origin, old engines) its message and place. */
function thrownBy(event: ErrorEvent): { value: unknown; stack?: string } {
  if (event.error !== undefined && event.error !== null) return { value: event.error };
  const place = event.filename ? `    at ${event.filename}:${event.lineno || 0}:${event.colno || 0}` : undefined;
  return { value: event.message || 'Unknown error', stack: place };
}

/**
 * Starts capturing uncaught errors and unhandled rejections of `target`; returns the stop function.
 * `capture` gets the `$exception` properties of each one the rate limiter lets through.
 */
export function startExceptionAutocapture(
  target: Window,
  capture: (properties: ExceptionProperties) => void,
  onRateLimited?: (type: string) => void,
): () => void {
  const limiter = createExceptionRateLimiter();
  const send = (value: unknown, mechanism: string, stack?: string) => {
    // Whatever goes wrong here must not raise a second error inside the page's error handling.
    try {
      const properties = exceptionProperties(value, { platform: 'web:javascript', mechanism: { type: mechanism, handled: false }, syntheticStack: stack });
      const type = properties.$exception_list[0]!.type;
      if (limiter.take(type)) capture(properties);
      else onRateLimited?.(type);
    } catch {
      // Nothing sensible is left to do: reporting it could loop through this very listener.
    }
  };
  const onError = (event: ErrorEvent) => {
    const { value, stack } = thrownBy(event);
    send(value, 'onerror', stack);
  };
  const onRejection = (event: PromiseRejectionEvent) => send(event.reason, 'onunhandledrejection');
  target.addEventListener('error', onError);
  target.addEventListener('unhandledrejection', onRejection);
  return () => {
    target.removeEventListener('error', onError);
    target.removeEventListener('unhandledrejection', onRejection);
  };
}
