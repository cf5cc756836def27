/**
 * One process-wide pair of `uncaughtException` / `unhandledRejection` listeners for every client
 * with enableExceptionAutocapture, so many clients add two listeners, not two each.
 *
 * Listening changes what Node does: a process with an `uncaughtException` listener no longer dies,
 * and one with an `unhandledRejection` listener no longer turns the rejection into a crash. So
 * unless the app has listeners of its own (then they decide, as without hogtail), these hooks do
 * what Node would have done, after the clients have had a bounded time to deliver the event: print
 * the error and exit with code 1. `--unhandled-rejections` (flag or NODE_OPTIONS) is honoured.
 */
import { inspect } from 'node:util';

export interface ExceptionHookClient {
  /** Captures an exception nobody handled; `mechanism` says where it was caught. */
  captureUnhandled(error: unknown, mechanism: 'onuncaughtexception' | 'onunhandledrejection'): void;
  /** Delivers what is queued, waiting at most the client's exit flush time, then closes. */
  flushBeforeCrash(): Promise<void>;
}

type RejectionMode = 'throw' | 'strict' | 'warn' | 'none' | 'warn-with-error-code';

const clients = new Set<ExceptionHookClient>();
/** Rejections turned into errors here and re-emitted as uncaught exceptions: captured already. */
const forwarded = new WeakSet<object>();
let crashing = false;

function rejectionMode(): RejectionMode {
  const args = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  let mode: RejectionMode = 'throw';
  for (let i = 0; i < args.length; i++) {
    const match = /^--unhandled[-_]rejections(?:=(.*))?$/.exec(args[i]!);
    const value = match && (match[1] ?? args[i + 1]);
    if (value && ['throw', 'strict', 'warn', 'none', 'warn-with-error-code'].includes(value)) mode = value as RejectionMode;
  }
  return mode;
}

/** Listeners the app (or another library) added: ours do not count. */
function othersListening(event: 'uncaughtException' | 'unhandledRejection'): boolean {
  const listeners: unknown[] = event === 'uncaughtException' ? process.listeners(event) : process.listeners(event);
  return listeners.some((listener) => listener !== onUncaught && listener !== onRejection);
}

function crash(error: unknown): void {
  if (crashing) return;
  crashing = true;
  // What Node prints for an uncaught exception, give or take its source-line excerpt.
  console.error(error);
  void Promise.allSettled([...clients].map((client) => client.flushBeforeCrash())).then(() => process.exit(1));
}

/**
 * Hands the error to every client. A throw here would happen inside Node's own crash handling: Node
 * would exit at once (code 7) and the app's listeners would never run. Each client reports its own
 * failures; this guard only keeps one client's bad day from reaching Node or the other clients.
 */
function captureEverywhere(error: unknown, mechanism: 'onuncaughtexception' | 'onunhandledrejection'): void {
  for (const client of clients) {
    try {
      client.captureUnhandled(error, mechanism);
    } catch {
      // Nothing left to tell: the client's reporter is what failed.
    }
  }
}

function onUncaught(error: unknown, origin?: string): void {
  const mechanism = origin === 'unhandledRejection' ? 'onunhandledrejection' : 'onuncaughtexception';
  if (!(typeof error === 'object' && error !== null && forwarded.has(error))) captureEverywhere(error, mechanism);
  if (!othersListening('uncaughtException')) crash(error);
}

function asError(reason: unknown): Error {
  if (reason instanceof Error) return reason;
  // inspect, not String: `{ code: 'E_CONFIG' }` says more than "[object Object]", and it never throws.
  return Object.assign(new Error(`A promise was rejected with a non-Error reason and nothing handled it: ${inspect(reason)}`), {
    name: 'UnhandledPromiseRejection',
    code: 'ERR_UNHANDLED_REJECTION',
  });
}

function onRejection(reason: unknown): void {
  captureEverywhere(reason, 'onunhandledrejection');
  if (othersListening('unhandledRejection')) return;
  const mode = rejectionMode();
  if (mode === 'throw') {
    // Node's default: the rejection becomes an uncaught exception (the app's listeners see it too).
    const error = asError(reason);
    forwarded.add(error);
    // @types/node does not type emitting this event with its `origin` argument.
    (process.emit as (event: string, ...args: unknown[]) => boolean).call(process, 'uncaughtException', error, 'unhandledRejection');
  } else if (mode === 'warn-with-error-code') {
    process.emitWarning(`Unhandled promise rejection: ${asError(reason).message}`, 'UnhandledPromiseRejectionWarning');
    process.exitCode = 1;
  }
}

/** Starts capturing for `client`; the returned function stops it (the last one removes the listeners). */
export function hookExceptions(client: ExceptionHookClient): () => void {
  if (clients.size === 0) {
    process.on('uncaughtException', onUncaught);
    // In strict mode Node raises the rejection as an uncaught exception first: caught above.
    if (rejectionMode() !== 'strict') process.on('unhandledRejection', onRejection);
  }
  clients.add(client);
  return () => {
    if (!clients.delete(client) || clients.size > 0) return;
    process.off('uncaughtException', onUncaught);
    process.off('unhandledRejection', onRejection);
  };
}
