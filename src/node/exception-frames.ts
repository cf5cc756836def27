/**
 * Node frames named the way posthog-node names them, so an app that switches keeps its PostHog
 * issues (which group by frame): an absolute path becomes relative to the working directory, and
 * each frame gets a `module`, `dir.sub:file` from the entry script's directory, or
 * `package.dir:file` inside node_modules.
 */
import { dirname, isAbsolute, relative, sep } from 'node:path';
import type { StackFrame } from '../core/exceptions';

export interface NodeStackFrame extends StackFrame {
  module?: string;
}

const toUnix = (path: string) => (sep === '\\' ? path.replace(/^[a-z]:/i, '').replace(/\\/g, '/') : path);

/**
 * A file name as written: `%20` from a file: URL becomes a space, but a `%` that starts no escape
 * (`50%off.cjs`, or any text a stack line in a message made up) stays as it is instead of throwing.
 */
function decodeFileName(name: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

function moduleOf(filename: string, base: string): string {
  const path = toUnix(filename);
  const slash = path.lastIndexOf('/');
  let dir = slash < 0 ? '.' : path.slice(0, slash);
  const file = decodeFileName(path.slice(slash + 1).replace(/\.[cm]?js$/, ''));
  const packages = dir.lastIndexOf('/node_modules');
  if (packages >= 0) return `${dir.slice(packages + '/node_modules/'.length).replace(/\//g, '.')}:${file}`;
  if (!dir.startsWith(base)) return file;
  dir = dir.slice(base.length + 1).replace(/\//g, '.');
  return dir ? `${dir}:${file}` : file;
}

/** Adds `module` and makes absolute filenames relative to the working directory, in place. */
export function nameNodeFrames(frames: NodeStackFrame[]): void {
  const cwd = process.cwd();
  const base = toUnix(process.argv[1] ? dirname(process.argv[1]) : cwd);
  for (const frame of frames) {
    const filename = frame.filename;
    if (!filename) continue;
    frame.module = moduleOf(filename, base);
    if (!filename.startsWith('node:') && isAbsolute(filename)) frame.filename = toUnix(relative(cwd, filename));
  }
}
