/**
 * Exceptions in the browser: `$exception` properties for captureException(), and a starter for
 * `capture_exceptions` that listens to the window's `error` and `unhandledrejection` events (and,
 * when asked, wraps console.error, as posthog-js's `capture_console_errors`).
 *
 * Listening (not wrapping window.onerror) leaves the page's own handlers and the console untouched.
 * A bubbling `error` listener on the window hears script errors only: resource load failures
 * (a broken <img>) do not bubble. Autocapture is rate-limited per error type, as posthog-js does,
 * so a throw loop sends a few events, not thousands; drops go to `onRateLimited` to be counted.
 * A separate module, so the lite script tag leaves it (and the stack parser) out.
 */
import { createExceptionRateLimiter, exceptionProperties, type ExceptionProperties } from '../../core/exceptions';
import { attempt } from '../../core/safe-json';
import { textOf } from '../../core/text-of';

/**
 * captureException(error, properties): the stack of this call stands in for a value that has none.
 * `sdkFrames`: the frames on top of the app's that are the SDK's own (this function, the client
 * method, any wrapper between them and the app), left out of that stack.
 */
export function exceptionEventProperties(error: unknown, properties?: Record<string, unknown>, sdkFrames = 2): ExceptionProperties {
  return {
    ...exceptionProperties(error, { platform: 'web:javascript', syntheticStack_: new Error().stack, syntheticSkip_: sdkFrames }),
    ...properties,
  };
}

/** What to capture; posthog-js's `capture_exceptions` object names them (see `exceptionKinds`). */
export interface ExceptionKinds {
  errors_?: boolean;
  rejections_?: boolean;
  /** console.error calls (posthog-js's `capture_console_errors`): off unless asked for. */
  console?: boolean;
}

/**
 * posthog-js's `capture_exceptions`: `true` is uncaught errors and unhandled rejections, an object
 * picks among `capture_unhandled_errors`, `capture_unhandled_rejections`, `capture_console_errors`.
 */
export function exceptionKinds(option: unknown): ExceptionKinds {
  if (!option || typeof option !== 'object') return { errors_: !!option, rejections_: !!option };
  const picked = option as Record<string, unknown>;
  return {
    errors_: !!picked.capture_unhandled_errors,
    rejections_: !!picked.capture_unhandled_rejections,
    console: !!picked.capture_console_errors,
  };
}

/**
 * What a console.error call is about: its first Error, else its one argument, else its arguments
 * joined by spaces as posthog-js joins them (null and undefined as nothing), where an object without
 * a toString, a Symbol or a revoked Proxy (which has no text at all) cannot make the join throw.
 */
function consoleValue(args: unknown[]): unknown {
  for (const arg of args) if (attempt(() => arg instanceof Error, false)) return arg;
  if (args.length === 1) return args[0];
  let text = '';
  for (let i = 0; i < args.length; i++) text += (i ? ' ' : '') + (args[i] == null ? '' : attempt(() => textOf(args[i]), '[unreadable]'));
  return text;
}

/**
 * Starts capturing what `kinds` names (uncaught errors and unhandled rejections by default) in
 * `target`; returns the stop function. `capture` gets the `$exception` properties of each one the
 * rate limiter lets through, `onRateLimited` the type of each one it holds back.
 */
export function startExceptionAutocapture(
  target: Window,
  capture: (properties: ExceptionProperties) => void,
  onRateLimited?: (type: string) => void,
  kinds: ExceptionKinds = { errors_: true, rejections_: true },
): () => void {
  const limiter = createExceptionRateLimiter();
  /** `stack`: stands in for a value that has none; `skip`: its frames on top that are the SDK's (the console wrapper). */
  const send = (value: unknown, mechanism: string, stack?: string, skip?: number) => {
    // Whatever goes wrong here must not raise a second error inside the page's error handling.
    try {
      const properties = exceptionProperties(value, {
        platform: 'web:javascript',
        mechanism: { type: mechanism, handled: mechanism === 'onconsole' },
        syntheticStack_: stack,
        syntheticSkip_: skip,
      });
      const type = properties.$exception_list[0]!.type;
      if (limiter.take(type)) capture(properties);
      else onRateLimited?.(type);
    } catch {
      // Nothing sensible is left to do: reporting it could loop through this very listener.
    }
  };
  const stops: (() => void)[] = [];
  const listen = <K extends 'error' | 'unhandledrejection'>(name: K, listener: (event: WindowEventMap[K]) => void) => {
    target.addEventListener(name, listener);
    stops.push(() => target.removeEventListener(name, listener));
  };
  if (kinds.errors_) {
    listen('error', ({ error, message, filename, lineno, colno }) =>
      error !== undefined && error !== null
        ? send(error, 'onerror')
        : // No thrown value (cross-origin scripts, old engines): its message, and its place as a frame.
          send(message || 'Unknown error', 'onerror', filename && `    at ${filename}:${lineno || 0}:${colno || 0}`),
    );
  }
  if (kinds.rejections_) listen('unhandledrejection', (event) => send(event.reason, 'onunhandledrejection'));
  const console = (target as Window & typeof globalThis).console;
  const original = console?.error;
  if (kinds.console && original) {
    let busy = false;
    const wrapper = function (this: unknown, ...args: unknown[]) {
      // An app logs the values it has, whatever they are: reading them must never throw into its
      // code, and the console must still print them. `busy`: a console.error made while one is
      // captured (a hook that logs) is printed, not captured again.
      if (!busy) {
        busy = true;
        try {
          // hogtail's own console lines are about hogtail, not the page.
          if (!(typeof args[0] === 'string' && args[0].startsWith('[hogtail]')))
            send(consoleValue(args), 'onconsole', new Error().stack, 1);
        } catch {
          // Nothing to capture then; the console still prints below.
        }
        busy = false;
      }
      return original.apply(this, args);
    };
    console.error = wrapper;
    // Another library may have wrapped it since: then its wrapper stays, calling ours.
    stops.push(() => void (console.error === wrapper && (console.error = original)));
  }
  return () => stops.splice(0).forEach((stop) => stop());
}
