/**
 * captureException for the Node client, in posthog-node's shape: a `$exception` event whose
 * `$exception_list` comes from core/exceptions, sent as the given user or, without one, as a
 * fresh personless id (posthog-node does the same, so no person is created for a server error).
 *
 * Autocaptured exceptions (enableExceptionAutocapture) are rate-limited per error type, as
 * posthog-node does, so a throw loop sends a handful of events, not thousands; each drop is counted
 * (`stats().dropped.rate_limited`) and the first of each type reported. An error the app captured
 * itself and then let escape is not sent a second time.
 */
import { DroppedEventsError, HogtailError } from '../core/errors';
import { createExceptionRateLimiter, type StackFrame } from '../core/exceptions';
import { exceptionEvent, type ExceptionEvent } from '../core/exceptions/exception-event';
import { textOf } from '../core/text-of';
import { addContextLines } from './exception-context';
import { nameNodeFrames } from './exception-frames';
import { hookExceptions } from './exception-hooks';

type Properties = Record<string, unknown>;

export type ExceptionMessage = ExceptionEvent;

export interface ExceptionClient {
  capture(message: ExceptionMessage): void;
  countDrop(reason: 'rate_limited'): void;
  report(error: HogtailError): void;
  /** Delivers what is queued within the client's exit flush time (the process is about to exit). */
  flushBeforeCrash(): Promise<void>;
}

export interface ExceptionCapture {
  /**
   * The `$exception` event for `error`. `callStack` is a stack taken in the SDK method the app
   * called: its first frame is that method, the rest is the app's code that called it.
   */
  message(error: unknown, distinctId?: string, properties?: Properties, callStack?: string): ExceptionMessage;
  /** Stops autocapture (shutdown). */
  stop(): void;
}

/** Errors captured explicitly by any client; autocapture leaves them alone. */
const captured = new WeakSet<object>();

function remember(error: unknown): void {
  if (typeof error === 'object' && error !== null) captured.add(error);
}

/** Node's frames: source lines read first, from the absolute paths that naming makes relative. */
function adjustNodeFrames(frames: StackFrame[]): void {
  addContextLines(frames);
  nameNodeFrames(frames);
}

export function buildExceptionMessage(
  error: unknown,
  distinctId: unknown,
  properties: Properties | undefined,
  mechanism: { type: string; handled: boolean },
  callStack?: string,
): ExceptionMessage {
  return exceptionEvent(error, distinctId, properties, mechanism, callStack, adjustNodeFrames);
}

export function createExceptionCapture(client: ExceptionClient, autocapture: boolean): ExceptionCapture {
  const limiter = createExceptionRateLimiter();
  const reported = new Set<string>();
  function captureUncaught(error: unknown, type: string): void {
    const message = buildExceptionMessage(error, undefined, undefined, { type, handled: false });
    const errorType = (message.properties.$exception_list as { type: string }[])[0]?.type ?? 'Error';
    if (limiter.take(errorType)) return client.capture(message);
    client.countDrop('rate_limited');
    if (reported.size < 1_000 && !reported.has(errorType)) {
      reported.add(errorType);
      client.report(
        new DroppedEventsError(
          `uncaught ${errorType} not captured: more than 10 of this type in 10 seconds (later ones are counted in stats().dropped.rate_limited)`,
          'rate_limited',
          [],
        ),
      );
    }
  }
  const unhook = autocapture
    ? hookExceptions({
        captureUnhandled(error, type) {
          if (typeof error === 'object' && error !== null && captured.has(error)) return;
          try {
            captureUncaught(error, type);
          } catch (problem) {
            client.report(
              new HogtailError(`an uncaught exception could not be captured (${textOf(problem)}); the app's own handling goes on`),
            );
          }
        },
        flushBeforeCrash: () => client.flushBeforeCrash(),
      })
    : () => {};
  return {
    message(error, distinctId, properties, callStack) {
      remember(error);
      return buildExceptionMessage(error, distinctId, properties, { type: 'generic', handled: true }, callStack);
    },
    stop: unhook,
  };
}
