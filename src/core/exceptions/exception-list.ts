/**
 * The `$exception` event's properties in PostHog's error-tracking shape, from anything a program
 * can throw: an Error (with its `cause` chain and an AggregateError's `errors`), a string, a plain
 * object, null. Browser and Node share it; each hands in its platform name.
 *
 * `$exception_list` holds the thrown value first, then what it wraps, depth first: each entry's
 * `mechanism` names its parent (`parent_id`) and how it hangs there (`source: 'cause' | 'member'`),
 * so the server can draw the chain. A value that is no Error has no stack of its own; when the
 * caller hands in the stack of the capture call, its frames stand in (`mechanism.synthetic`).
 */
import { BROWSER_BUILD } from '../build-flags';
import { textOf } from '../text-of';
import { parseStack, stackAfterMessage, type FramePlatform, type StackFrame } from './stack-frames';

export interface ExceptionMechanism {
  /** 'generic' for captureException(); what caught it for autocapture ('onuncaughtexception', …). */
  type: string;
  /** On the thrown value's entry only (chained entries say how they hang on it instead). */
  handled?: boolean;
  synthetic?: boolean;
  exception_id?: number;
  parent_id?: number;
  source?: 'cause' | 'member';
}

export interface ExceptionEntry {
  type: string;
  value: string;
  mechanism: ExceptionMechanism;
  stacktrace?: { type: 'raw'; frames: StackFrame[] };
}

export interface ExceptionProperties {
  $exception_list: ExceptionEntry[];
  $exception_level: 'error';
  [key: string]: unknown;
}

export interface ExceptionOptions {
  platform: FramePlatform;
  /** What caught it; captureException()'s, `{ type: 'generic', handled: true }`, when left out. */
  mechanism?: { type: string; handled: boolean };
  /** The stack at the capture call, used for values that carry none (strings, objects, null). */
  syntheticStack_?: string;
  /** Frames of the synthetic stack that are the SDK's own (the capture call itself). */
  syntheticSkip_?: number;
}

/** Entries kept at most: a cycle of causes, or an AggregateError of thousands, stays one event. */
const MAX_EXCEPTIONS = 50;
const MAX_VALUE_LENGTH = 10_000;
// "TypeError: x is undefined", as window.onerror and some rejections hand over a bare message.
const TYPED_MESSAGE = /^(?:Uncaught (?:exception: )?)?((?:Eval|Internal|Range|Reference|Syntax|Type|URI|)Error): ([\s\S]*)$/;

/** Reads a property without letting a throwing getter or a Proxy escape. */
function read(value: object, key: string): unknown {
  try {
    return (value as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

function isError(value: unknown): value is Error {
  return value instanceof Error || Object.prototype.toString.call(value) === '[object Error]';
}

/** `name` if it is a non-empty string. */
const nameOf = (name: unknown) => (typeof name === 'string' && name ? name : undefined);

/**
 * A thrown value's type and message, and the Error it is or wraps (none for a string, a plain
 * object, null…): only an Error has a stack, causes and members of its own.
 */
function describe(value: unknown): [type: string, message: string, error?: Error] {
  if (typeof value === 'string') {
    const typed = TYPED_MESSAGE.exec(value);
    return typed ? [typed[1]!, typed[2]!] : ['Error', value];
  }
  if (typeof value !== 'object' || value === null) return ['Error', `Non-Error value thrown: ${textOf(value)}`];
  if (isError(value)) {
    const constructorName = (read(value, 'constructor') as { name?: unknown } | undefined)?.name;
    return [
      nameOf(read(value, 'name')) ?? (typeof constructorName === 'string' ? constructorName : 'Error'),
      textOf(read(value, 'message') ?? ''),
      value,
    ];
  }
  // { error: Error } wrappers (custom events, library results) are about the Error inside.
  for (const key of Object.keys(value)) {
    const inner = read(value, key);
    if (isError(inner)) return describe(inner);
  }
  const message = read(value, 'message');
  const keys = Object.keys(value).sort().join(', ').slice(0, 100);
  return [
    nameOf(read(value, 'name')) ?? 'Error',
    typeof message === 'string' ? message : `Non-Error object thrown, with keys: ${keys || '(none)'}`,
  ];
}

/** posthog-node's and posthog-js's `$exception` properties for `input`. Never throws. */
export function exceptionProperties(input: unknown, options: ExceptionOptions): ExceptionProperties {
  const list: ExceptionEntry[] = [];
  const seen = new Set<unknown>();
  /** `mechanism`: how the value was caught, or how it hangs on its parent. */
  const add = (value: unknown, mechanism: ExceptionMechanism) => {
    if (list.length >= MAX_EXCEPTIONS || (typeof value === 'object' && value !== null && seen.has(value))) return;
    seen.add(value);
    let [type, message, error]: [string, string, Error?] = ['Error', 'Unreadable value thrown'];
    try {
      [type, message, error] = describe(value);
    } catch {
      // A hostile value (a Proxy that throws): described as such.
    }
    const own = error && read(error, 'stack');
    const exception_id = list.length;
    // Only the thrown value itself borrows the capture call's stack: a cause's place is unknown.
    // Servers read source lines from frames' files: a message's frame-shaped lines must not count.
    // Pages read no files, and the script tag's bytes are budgeted: the browser keeps the stack whole.
    const [stack, skip] =
      typeof own === 'string' && own
        ? [BROWSER_BUILD ? own : stackAfterMessage(own, message)]
        : exception_id
          ? []
          : [options.syntheticStack_, options.syntheticSkip_];
    const frames = stack ? parseStack(stack, options.platform, skip) : [];
    list.push({
      type,
      value: message.slice(0, MAX_VALUE_LENGTH),
      mechanism: { ...mechanism, synthetic: !error, exception_id },
      ...(frames.length > 0 && { stacktrace: { type: 'raw', frames } }),
    });
    if (!error) return;
    const chain = (member: unknown, source: 'cause' | 'member') => add(member, { type: 'chained', parent_id: exception_id, source });
    const cause = read(error, 'cause');
    // AggregateError (Promise.any, and errors apps build themselves) carries its members here.
    const members = read(error, 'errors');
    if (cause !== undefined && cause !== null) chain(cause, 'cause');
    if (Array.isArray(members)) for (const member of members.slice(0, MAX_EXCEPTIONS)) chain(member, 'member');
  };
  add(input, options.mechanism ?? { type: 'generic', handled: true });
  return { $exception_list: list, $exception_level: 'error' };
}
