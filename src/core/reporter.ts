/**
 * Where problems go: the client's `error` listeners, and the console when nobody listens (or in
 * debug mode), so that nothing is dropped silently even in an app that never subscribed. One
 * implementation for the browser and Node, so both print by the same rules.
 */
import type { HogtailError } from './errors';
import { attempt } from './safe-json';

export type ErrorListener = (error: HogtailError) => void;

export interface Reporter {
  report(error: HogtailError): void;
  debug(message: string): void;
  setDebug(enabled: boolean): void;
}

/** @param listeners the client's `on('error')` subscribers, read at each report. */
export function createReporter(listeners: ReadonlySet<ErrorListener>, verbose?: boolean): Reporter {
  // Without a listener, the first problem of each kind is printed; later ones only in debug mode.
  const warned = new Set<string>();
  return {
    report(error) {
      // A broken listener must not break capture(), the queue or the other listeners.
      listeners.forEach((listener) => attempt(() => listener(error), 0));
      const kind = error.name + (error as { reason?: string }).reason;
      if (verbose || (!listeners.size && !warned.has(kind) && error.name !== 'TransportError')) {
        // A kind printed in debug mode counts as printed: turning debug off does not repeat it.
        warned.add(kind);
        console.warn(`[hogtail] ${error.name}: ${error.message}` + (verbose ? '' : " (repeats hidden; use on('error') or debug)"));
      }
    },
    debug(message) {
      if (verbose) console.debug('[hogtail] ' + message);
    },
    setDebug(enabled) {
      verbose = enabled;
    },
  };
}
