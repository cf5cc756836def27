/**
 * The flags file behind `hogtail dev --flags`: read once, then re-read whenever its size or
 * modification time changes, so editing the file changes what every SDK gets on its next flags
 * request. A file that stops parsing keeps the last good definitions in use and says why.
 */
import { readFileSync, statSync } from 'node:fs';
import { FlagDefinitionsError, parseFlagDefinitions, type FlagDefinitions } from '../../core/flag-engine';

export interface DefinitionsFileStatus {
  file: string;
  /** When the definitions in use were read, ISO 8601. */
  loadedAt: string;
  /** Why the file's current content is not in use (the last good definitions are); undefined when it is. */
  error: string | undefined;
}

export interface DefinitionsFile {
  /** The definitions to use now, re-reading the file first if it changed. */
  current(): FlagDefinitions;
  status(): DefinitionsFileStatus;
}

export interface DefinitionsFileOptions {
  onReload?: (definitions: FlagDefinitions) => void;
  /** A changed file that cannot be used; reported once per change. */
  onError?: (message: string) => void;
}

/**
 * Edits take effect at the next decide request without a restart. The file is checked with one
 * `stat` per request (mtime, ctime, size, inode) rather than fs.watch/watchFile: watchers miss
 * editors that save by renaming a new file into place, watchFile polls on a timer that would keep
 * the process busy, and a stat on a small local file costs microseconds.
 *
 * A change that does not parse leaves the last good definitions in use, so a half-typed edit never
 * turns every flag off; the error is reported and shown in the status.
 */
export function openDefinitionsFile(file: string, options: DefinitionsFileOptions = {}): DefinitionsFile {
  let definitions = load(file);
  let signature = signatureOf(file);
  let loadedAt = new Date().toISOString();
  let error: string | undefined;

  return {
    current() {
      const next = signatureOf(file);
      if (next === signature) return definitions;
      signature = next;
      try {
        definitions = load(file);
        loadedAt = new Date().toISOString();
        error = undefined;
        options.onReload?.(definitions);
      } catch (failure) {
        error = describe(failure);
        options.onError?.(`${file}: ${error}; still using the definitions read at ${loadedAt}`);
      }
      return definitions;
    },
    status: () => ({ file, loadedAt, error }),
  };
}

/** Throws a readable error: the file is missing, is not JSON, or holds invalid definitions. */
function load(file: string): FlagDefinitions {
  const text = readFileSync(file, 'utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (failure) {
    throw new FlagDefinitionsError([`not valid JSON: ${describe(failure)}`]);
  }
  return parseFlagDefinitions(parsed);
}

function signatureOf(file: string): string {
  try {
    const stats = statSync(file);
    return `${stats.mtimeMs}:${stats.ctimeMs}:${stats.size}:${stats.ino}`;
  } catch (failure) {
    // Editors briefly remove the file while saving; the next request sees the new one.
    return `missing:${(failure as NodeJS.ErrnoException).code ?? 'error'}`;
  }
}

function describe(failure: unknown): string {
  return failure instanceof Error ? failure.message : String(failure);
}
