/**
 * The page's console logs in the recording (`enable_recording_console_log`, or the project's
 * `consoleLogRecordingEnabled`), as rrweb's console plugin records them (`rrweb/console@1`: level,
 * the arguments as text, the stack), so PostHog's player shows them beside the page. Arguments are
 * cut to a few KB each: a page that logs a huge object must not fill the recording.
 */
import type { RecordPlugin } from './rrweb-types';

const LEVELS = ['log', 'info', 'warn', 'error', 'debug'] as const;
const MAX_ARGUMENT_CHARS = 2_000;

function text(value: unknown): string {
  let out: string;
  try {
    out =
      typeof value === 'string'
        ? value
        : value instanceof Error
          ? `${value.name}: ${value.message}`
          : (JSON.stringify(value) ?? String(value));
  } catch {
    out = String(value as object); // a cycle, a BigInt: its plain text
  }
  return out.length > MAX_ARGUMENT_CHARS ? out.slice(0, MAX_ARGUMENT_CHARS) + '…' : out;
}

/** The plugin: while recording, each console call is also a plugin event; stopping puts the console back. */
export const consoleLogPlugin: RecordPlugin = {
  name: 'rrweb/console@1',
  observer(emit: (payload: unknown) => void, win: Window & typeof globalThis) {
    const originals = LEVELS.map((level) => [level, win.console[level]] as const);
    let inside = false;
    for (const [level, original] of originals) {
      win.console[level] = function (this: Console, ...args: unknown[]) {
        // A logger that logs (a page's patched console, our own debug line) must not loop.
        if (!inside) {
          inside = true;
          try {
            emit({ level, payload: args.map(text), trace: (new Error().stack ?? '').split('\n').slice(2, 6) });
          } catch {
            // Recording a log never breaks the page's logging.
          }
          inside = false;
        }
        return original.apply(this, args);
      };
    }
    return () => {
      for (const [level, original] of originals) win.console[level] = original;
    };
  },
  options: {},
};
