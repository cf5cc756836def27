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
const UNKNOWN_FUNCTION = '?';

// `at fn (location)` or `at location`; the location ends in `:line:col`, `:line`, or nothing
// (`native`, `<anonymous>`, `index 0`).
const V8_LINE = /^\s*at (?:(.+?) \()?(.*?)(?::(\d+))?(?::(\d+))?\)?\s*$/;
// `eval at fn (file:line:col), <anonymous>:l:c`: the eval'd code's own position means nothing to
// the app, the place that called eval does.
const V8_EVAL = /\((\S+?):(\d+):(\d+)\)/;
// `fn@location:line:col`; split at the first `@`, since URLs carry `@` (`/npm/pkg@1.2.3/x.js`).
const AT_SIGN_LINE = /^\s*([^@]*)@(.+?)(?::(\d+))?(?::(\d+))?\s*$/;
// Firefox's eval and new Function frames: `file line 12 > eval` (the call site is line 12).
const AT_SIGN_EVAL = /^(.*?) line (\d+)(?: > \w+ line \d+)* > (?:eval|Function)/;
// Schemes of files the app serves itself; anything else (chrome-extension:, moz-extension:,
// webkit-masked-url:, node:) is not the app's code.
const APP_SCHEMES = /^(?:https?|file|blob|app|capacitor|ionic|webpack|webpack-internal|ng):/i;
const ANY_SCHEME = /^[a-z][a-z0-9.+-]*:/i;

function isInApp(filename: string | undefined, platform: FramePlatform): boolean {
  if (!filename || filename === '<anonymous>' || filename === '[native code]' || filename === 'native') return false;
  if (filename.includes('/node_modules/') || filename.includes('\\node_modules\\')) return false;
  if (ANY_SCHEME.test(filename) && !/^[a-z]:[\\/]/i.test(filename)) return APP_SCHEMES.test(filename);
  // Node: only real paths are the app's (not `internal/…`, `index 0` of Promise.all, `evalmachine`).
  return platform === 'web:javascript' || /^(?:\/|[a-z]:[\\/]|\.)/i.test(filename);
}

function frame(
  platform: FramePlatform,
  fn: string | undefined,
  filename: string | undefined,
  line: string | undefined,
  column: string | undefined,
): StackFrame {
  if (platform === 'node:javascript' && filename?.startsWith('file://')) {
    filename = filename.slice(7);
    // file:///C:/x → C:/x
    if (/^\/[a-z]:\//i.test(filename)) filename = filename.slice(1);
  }
  const parsed: StackFrame = {
    platform,
    filename: filename || undefined,
    function: !fn || fn === '<anonymous>' ? UNKNOWN_FUNCTION : fn,
    in_app: isInApp(filename, platform),
  };
  if (line) parsed.lineno = Number(line);
  if (column) parsed.colno = Number(column);
  return parsed;
}

function parseV8Line(line: string, platform: FramePlatform): StackFrame | undefined {
  const parts = V8_LINE.exec(line);
  if (!parts) return undefined;
  let [, fn, location, lineNo, column] = parts;
  fn = fn?.replace(/^async /, '');
  location = location!.replace(/^async /, '');
  if (location.startsWith('eval at ')) {
    const caller = V8_EVAL.exec(location);
    if (caller) [, location, lineNo, column] = caller;
  }
  return frame(platform, fn, location, lineNo, column);
}

function parseAtSignLine(line: string, platform: FramePlatform): StackFrame | undefined {
  const parts = AT_SIGN_LINE.exec(line);
  if (!parts) return undefined;
  let [, fn, location, lineNo, column] = parts;
  const evaluated = AT_SIGN_EVAL.exec(location!);
  if (evaluated) {
    [, location, lineNo] = evaluated;
    column = undefined;
    fn ||= 'eval';
  }
  return frame(platform, fn, location, lineNo, column);
}

/** Frames of a stack string, oldest call first; lines that are no frame (the message) are skipped. */
export function parseStack(stack: string, platform: FramePlatform, skipFrames = 0): StackFrame[] {
  const lines = stack.split('\n', MAX_LINES);
  const v8 = lines.some((line) => /^\s*at /.test(line));
  const parse = v8 ? parseV8Line : parseAtSignLine;
  const frames: StackFrame[] = [];
  for (const line of lines) {
    if (line.length > MAX_LINE_LENGTH || (v8 && !/^\s*at /.test(line))) continue;
    const parsed = parse(line, platform);
    if (parsed && skipFrames-- <= 0) frames.push(parsed);
    if (frames.length === MAX_FRAMES) break;
  }
  return frames.reverse();
}
