/**
 * Stack traces as PostHog error tracking reads them: one frame per call, oldest call first and the
 * throwing frame last (the order PostHog, like Sentry, renders and groups by).
 *
 * Two text formats exist in the wild. V8 (Chrome, Edge, Node, Deno, Bun's V8 mode) writes
 * `    at fn (file:line:col)`; SpiderMonkey (Firefox) and JavaScriptCore (Safari, Bun) write
 * `fn@file:line:col`. A stack is read in one format only, chosen by whether any line starts with
 * `at `: a V8 message line that happens to contain `@` (an email address) is then never taken for
 * a frame.
 */
// Browser builds read web frames only: `BROWSER_BUILD` takes the Node-only rules out (72 B gzip).
import { BROWSER_BUILD } from '../build-flags';

/** posthog-node and posthog-js name the runtime this way; the server picks its symbolication by it. */
export type FramePlatform = 'node:javascript' | 'web:javascript';

export interface StackFrame {
  platform: FramePlatform;
  filename?: string;
  function: string;
  lineno?: number;
  colno?: number;
  /** The app's own code (not a dependency, the runtime or a browser extension). */
  in_app: boolean;
}

/** The innermost frames kept; a deep recursion's bottom says nothing the top does not. */
export const MAX_FRAMES = 50;
/** Lines read at most, and the longest line read (minified one-liners can carry huge eval text). */
const MAX_LINES = 1_000;
const MAX_LINE_LENGTH = 1_024;

// [, fn, location]. V8: `at fn (location)` or `at location`; the other: `fn@location`, split at
// the first `@`, since URLs carry `@` (`/npm/pkg@1.2.3/x.js`).
const V8_LINE = /^\s*at (?:async )?(?:(.+?) \()?(.*?)\)?\s*$/;
const AT_SIGN_LINE = /^\s*([^@]*)@(.*?)\s*$/;
// A location ends in `:line:col`, `:line`, or nothing (`native`, `<anonymous>`, `index 0`).
const POSITION = /^(.*?)(?::(\d+))?(?::(\d+))?$/;
// [, file, line, col?] of the call to eval (the eval'd code's own position means nothing to the
// app): `eval at fn (file:line:col), <anonymous>`, or Firefox's `file line 12 > eval`.
const V8_EVAL = /^eval at .*?\((\S+?):(\d+):(\d+)\)/;
const AT_SIGN_EVAL = /^(.*?) line (\d+)(?: > \w+ line \d+)* > (?:eval|Function)/;
// Schemes of files the app serves itself; anything else (chrome-extension:, moz-extension:,
// webkit-masked-url:, node:) is not the app's code. A Windows drive letter is no scheme.
const APP_SCHEMES = /^(?:https?|file|blob|app|capacitor|ionic|webpack|webpack-internal|ng):/i;
const OTHER_SCHEME = /^(?![a-z]:[\\/])[a-z][a-z0-9.+-]*:/i;

function isInApp(filename: string | undefined, platform: FramePlatform): boolean {
  if (!filename || /^(?:<anonymous>|\[native code\]|native)$|[\\/]node_modules[\\/]/.test(filename)) return false;
  if (OTHER_SCHEME.test(filename)) return APP_SCHEMES.test(filename);
  // Node: only real paths are the app's (not `internal/…`, `index 0` of Promise.all, `evalmachine`).
  return BROWSER_BUILD || platform === 'web:javascript' || /^(?:\/|[a-z]:[\\/]|\.)/i.test(filename);
}

function parseLine(line: string, v8: boolean, platform: FramePlatform): StackFrame | undefined {
  const parts = (v8 ? V8_LINE : AT_SIGN_LINE).exec(line);
  if (!parts) return undefined;
  let fn = parts[1];
  let [, filename, lineno, colno] = POSITION.exec(parts[2]!)!;
  const evaluated = (v8 ? V8_EVAL : AT_SIGN_EVAL).exec(filename!);
  if (evaluated) {
    [, filename, lineno, colno] = evaluated;
    fn ||= 'eval';
  }
  // Node's ESM paths: file:///srv/app.mjs → /srv/app.mjs, file:///C:/x → C:/x.
  if (!BROWSER_BUILD && platform === 'node:javascript' && filename!.startsWith('file://'))
    filename = filename!.slice(/^file:\/\/\/[a-z]:\//i.test(filename!) ? 8 : 7);
  const frame: StackFrame = {
    platform,
    filename: filename || undefined,
    function: !fn || fn === '<anonymous>' ? '?' : fn,
    in_app: isInApp(filename, platform),
  };
  if (lineno) frame.lineno = +lineno;
  if (colno) frame.colno = +colno;
  return frame;
}

/**
 * The part of an Error's stack after its header. V8 starts a stack with `Name: message`, and a
 * message can carry text shaped like frames (user input in `'bad name: ' + input`): those lines must
 * never be read as frames (Node reads source lines from a frame's file). The header is the message
 * found on the first line and ending a line; a stack without it (Firefox and Safari write frames
 * only, or the message changed after the stack was read) is taken whole.
 */
export function stackAfterMessage(stack: string, message: string): string {
  if (!message) return stack;
  let start = stack.indexOf(message + '\n');
  if (start < 0 && stack.endsWith(message)) start = stack.length - message.length;
  return start < 0 || stack.lastIndexOf('\n', start) >= 0 ? stack : stack.slice(start + message.length);
}

/** Frames of a stack string, oldest call first; lines that are no frame (the message) are skipped. */
export function parseStack(stack: string, platform: FramePlatform, skipFrames = 0): StackFrame[] {
  const v8 = /^\s*at /m.test(stack);
  const frames: StackFrame[] = [];
  for (const line of stack.split('\n', MAX_LINES)) {
    const frame = line.length <= MAX_LINE_LENGTH && parseLine(line, v8, platform);
    if (frame && skipFrames-- <= 0 && frames.push(frame) === MAX_FRAMES) break;
  }
  return frames.reverse();
}
