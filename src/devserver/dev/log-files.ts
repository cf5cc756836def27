/**
 * `hogtail dev`'s persistence: append-only NDJSON, one file per UTC day and kind
 * (`events-2024-05-01.ndjson`, `rejections-2024-05-01.ndjson`), read back as a stream on start.
 *
 * Why this and not a database: it needs no dependency (node:sqlite is still experimental and the
 * package supports Node 20); a line is written before the request is answered, so an acknowledged
 * event is on disk; appends never rewrite earlier data, so a crash can at worst tear the last line,
 * which is detected and skipped on load; and the files are plain text a developer can `tail -f`,
 * `grep`, `jq` or delete by day. Files are read line by line, never whole, so a day file can grow
 * past what one string can hold (about 512 MB) and the server still starts.
 */
import { appendFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { forEachLine } from './line-reader';

/** A record is one event or rejection; an event is at most about 1 MB, so a longer line is damage. */
export const MAX_RECORD_BYTES = 16 * 1024 * 1024;

export interface DailyLog {
  /**
   * Calls `onLine` with every line of every day, oldest file first, in the order appended; answers
   * how many lines were too long to be records. Also ends a torn last line so the next append starts
   * clean.
   */
  readLines(onLine: (line: string) => void): Promise<{ overlong: number }>;
  /**
   * Appends synchronously, so the records are in the file before the caller answers the request.
   * Answers each record as written (its JSON line, without the newline).
   */
  append(records: readonly unknown[], day: string): string[];
  /** Deletes every file of this kind. */
  removeAll(): void;
}

export function openDailyLog(dir: string, kind: string): DailyLog {
  mkdirSync(dir, { recursive: true });
  const pattern = new RegExp(`^${kind}-\\d{4}-\\d{2}-\\d{2}\\.ndjson$`);
  const files = (): string[] =>
    readdirSync(dir)
      .filter((name) => pattern.test(name))
      .sort()
      .map((name) => join(dir, name));
  return {
    async readLines(onLine) {
      let overlong = 0;
      for (const path of files()) {
        const read = await forEachLine(path, onLine, MAX_RECORD_BYTES);
        overlong += read.overlong;
        // A torn last line would otherwise glue onto the next append and spoil a good record too.
        if (!read.endsWithNewline) appendFileSync(path, '\n');
      }
      return { overlong };
    },
    append(records, day) {
      if (records.length === 0) return [];
      const lines = records.map((record) => JSON.stringify(record));
      appendFileSync(join(dir, `${kind}-${day}.ndjson`), `${lines.join('\n')}\n`);
      return lines;
    },
    removeAll() {
      for (const path of files()) rmSync(path, { force: true });
    },
  };
}

/** The UTC day of an ISO timestamp, which names the file a record goes to. */
export function dayOf(isoTimestamp: string): string {
  return isoTimestamp.slice(0, 10);
}
