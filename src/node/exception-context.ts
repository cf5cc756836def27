/**
 * Source lines around each Node frame (`pre_context`, `context_line`, `post_context`: 7 lines
 * either side), as posthog-node adds them, so PostHog shows the code of a server error without
 * source maps.
 *
 * Read synchronously, so the event is built and queued at the capture call like any other (order
 * kept, flush() covers it); the cost is bounded: only script files (.js/.ts and kin; not `node:`
 * internals, minified files or lines past 10,000 / columns past 1,000, which are bundles), at most
 * 2 MB each, and the last 20 files are kept in memory, so an error repeating in a loop reads its
 * files once.
 */
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { createLru } from '../core/lru';
import type { NodeStackFrame } from './exception-frames';

export interface ContextFrame extends NodeStackFrame {
  pre_context?: string[];
  context_line?: string;
  post_context?: string[];
}

const LINES_AROUND = 7;
const MAX_FILE_BYTES = 2 * 1024 * 1024;
const FILES_KEPT = 20;
/** filename → its lines (null: unreadable or too big), most recently used last. */
const files = createLru<string, string[] | null>(FILES_KEPT);

// Long lines are cut to their first 140 characters, as posthog-node cuts them.
const snip = (line: string) => (line.length <= 150 ? line : line.slice(0, 140) + '...');

function linesOf(filename: string): string[] | null {
  let lines = files.get(filename);
  if (lines === undefined) {
    try {
      lines = null;
      if (statSync(filename).size <= MAX_FILE_BYTES) {
        const text = readFileSync(filename, 'utf8');
        lines = text.split(/\r?\n/);
        // A final newline ends the last line; it starts no empty one (as readline reads it).
        if (text.endsWith('\n')) lines.pop();
      }
    } catch {
      lines = null;
    }
  }
  files.set(filename, lines);
  return lines;
}

/** Adds the source lines around each frame that points into a readable file, in place. */
export function addContextLines(frames: ContextFrame[]): void {
  for (const frame of frames) {
    const { filename, lineno, colno } = frame;
    if (!filename || !lineno || lineno > 10_000 || (colno ?? 0) > 1_000 || !isAbsolute(filename)) continue;
    // Script files only: a stack is text an app may have received from elsewhere, and its paths
    // must not make hogtail send the lines of any other file (a config, a key) to PostHog.
    if (!/\.[cm]?[jt]sx?$/.test(filename) || /\.min\.[cm]?js$/.test(filename)) continue;
    const lines = linesOf(filename);
    const line = lines?.[lineno - 1];
    if (!lines || line === undefined) continue;
    frame.pre_context = lines.slice(Math.max(0, lineno - 1 - LINES_AROUND), lineno - 1).map(snip);
    frame.context_line = snip(line);
    frame.post_context = lines.slice(lineno, lineno + LINES_AROUND).map(snip);
  }
}
