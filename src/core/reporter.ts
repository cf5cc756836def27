/**
 * Where problems go: the client's `error` listeners, and the console when nobody listens (or in
 * debug mode), so that nothing is dropped silently even in an app that never subscribed.
 */
import type { HogtailError } from './errors';

export interface Reporter {
  report(error: HogtailError): void;
  debug(message: string): void;
  setDebug(enabled: boolean): void;
}

export function createReporter(
  prefix: string,
  emitError: (error: HogtailError) => boolean,
  debugEnabled: boolean,
): Reporter {
  let verbose = debugEnabled;
  // Without a listener, the first problem of each kind is printed; later ones only in debug mode.
  const warned = new Set<string>();
  return {
    report(error) {
      const heard = emitError(error);
      const kind = error.name + (error as { reason?: string }).reason;
      if (verbose || (!heard && !warned.has(kind) && error.name !== 'TransportError')) {
        // A kind printed in debug mode counts as printed: turning debug off does not repeat it.
        warned.add(kind);
        console.warn(`${prefix} ${error.name}: ${error.message}` + (verbose ? '' : " (repeats hidden; use on('error') or debug)"));
      }
    },
    debug(message) {
      if (verbose) console.debug(`${prefix} ${message}`);
    },
    setDebug(enabled) {
      verbose = enabled;
    },
  };
}
