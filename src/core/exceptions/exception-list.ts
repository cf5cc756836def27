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
import { parseStack, type FramePlatform, type StackFrame } from './stack-frames';

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
  mechanism?: { type?: string; handled?: boolean };
  /** The stack at the capture call, used for values that carry none (strings, objects, null). */
  syntheticStack?: string;
  /** Frames of the synthetic stack that are the SDK's own (the capture call itself). */
  syntheticSkip?: number;
}

/** Entries kept at most: a cycle of causes, or an AggregateError of thousands, stays one event. */
const MAX_EXCEPTIONS = 50;
const MAX_VALUE_LENGTH = 10_000;
// "TypeError: x is undefined", as window.onerror and some rejections hand over a bare message.
const TYPED_MESSAGE = /^(?:Uncaught (?:exception: )?)?((?:Eval|Internal|Range|Reference|Syntax|Type|URI|)Error): ([\s\S]*)$/;

interface Described {
  type: string;
  value: string;
  stack?: string;
  synthetic: boolean;
  cause?: unknown;
  members?: unknown[];
}

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

function text(value: unknown): string {
  try {
    return String(value);
  } catch {
    return typeof value;
  }
}

function describeError(error: Error): Described {
  const name = read(error, 'name');
  const stack = read(error, 'stack');
  const members = read(error, 'errors');
  const constructorName = (read(error, 'constructor') as { name?: unknown } | undefined)?.name;
  return {
    type: typeof name === 'string' && name ? name : typeof constructorName === 'string' ? constructorName : 'Error',
    value: text(read(error, 'message') ?? ''),
    stack: typeof stack === 'string' ? stack : undefined,
    synthetic: false,
    cause: read(error, 'cause'),
    // AggregateError (Promise.any, and errors apps build themselves) carries its members here.
    members: Array.isArray(members) ? members : undefined,
  };
}

function describeObject(value: object): Described {
  // { error: Error } wrappers (custom events, library results) are about the Error inside.
  for (const key of Object.keys(value)) {
    const inner = read(value, key);
    if (isError(inner)) return describeError(inner);
  }
  const name = read(value, 'name');
  const message = read(value, 'message');
  const keys = Object.keys(value).sort().join(', ').slice(0, 100);
  return {
    type: typeof name === 'string' && name ? name : 'Error',
    value: typeof message === 'string' ? message : `Non-Error object thrown, with keys: ${keys || '(none)'}`,
    synthetic: true,
  };
}

function describe(value: unknown): Described {
  if (isError(value)) return describeError(value);
  if (typeof value === 'string') {
    const typed = TYPED_MESSAGE.exec(value);
    return { type: typed?.[1] || 'Error', value: typed ? typed[2]! : value, synthetic: true };
  }
  if (value !== null && typeof value === 'object') return describeObject(value);
  return { type: 'Error', value: `Non-Error value thrown: ${text(value)}`, synthetic: true };
}

/** posthog-node's and posthog-js's `$exception` properties for `input`. Never throws. */
export function exceptionProperties(input: unknown, options: ExceptionOptions): ExceptionProperties {
  const list: ExceptionEntry[] = [];
  const seen = new Set<unknown>();
  const handled = options.mechanism?.handled ?? true;
  const add = (value: unknown, parentId?: number, source?: 'cause' | 'member') => {
    if (list.length >= MAX_EXCEPTIONS || (typeof value === 'object' && value !== null && seen.has(value))) return;
    seen.add(value);
    let described: Described;
    try {
      described = describe(value);
    } catch {
      described = { type: 'Error', value: 'Unreadable value thrown', synthetic: true };
    }
    const id = list.length;
    const root = parentId === undefined;
    let stack = described.stack;
    // Only the thrown value itself borrows the capture call's stack: a cause's place is unknown.
    const synthetic = root && !stack && options.syntheticStack !== undefined;
    if (synthetic) stack = options.syntheticStack;
    const entry: ExceptionEntry = {
      type: described.type,
      value: described.value.slice(0, MAX_VALUE_LENGTH),
      mechanism: root
        ? { type: options.mechanism?.type || 'generic', handled, synthetic: described.synthetic, exception_id: id }
        : { type: 'chained', synthetic: described.synthetic, exception_id: id, parent_id: parentId, source },
    };
    if (stack) {
      const frames = parseStack(stack, options.platform, synthetic ? (options.syntheticSkip ?? 0) : 0);
      if (frames.length > 0) entry.stacktrace = { type: 'raw', frames };
    }
    list.push(entry);
    if (described.cause !== undefined && described.cause !== null) add(described.cause, id, 'cause');
    for (const member of described.members?.slice(0, MAX_EXCEPTIONS) ?? []) add(member, id, 'member');
  };
  add(input);
  return { $exception_list: list, $exception_level: 'error' };
}
