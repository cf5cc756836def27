/**
 * `hogtail dev`'s persistence: append-only NDJSON, one file per UTC day and kind
 * (`events-2024-05-01.ndjson`, `rejections-2024-05-01.ndjson`), read back whole on start.
 *
 * Why this and not a database: it needs no dependency (node:sqlite is still experimental and the
 * package supports Node 20); a line is written before the request is answered, so an acknowledged
 * event is on disk; appends never rewrite earlier data, so a crash can at worst tear the last line,
 * which is detected and skipped on load; and the files are plain text a developer can `tail -f`,
 * `grep`, `jq` or delete by day. A dev session holds thousands of events, not billions, so reading
 * everything back at start is fast enough and needs no index on disk.
 */
import { appendFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface LoadedLog {
  records: unknown[];
  /** Lines that were not JSON: a torn final line after a crash, or a hand edit gone wrong. */
  skippedLines: number;
}

export interface DailyLog {
  /** Every record of every day, oldest file first, in the order appended. */
  readAll(): LoadedLog;
  /** Appends synchronously, so the records are in the file before the caller answers the request. */
  append(records: readonly unknown[], day: string): void;
}

export function openDailyLog(dir: string, kind: string): DailyLog {
  mkdirSync(dir, { recursive: true });
  const pattern = new RegExp(`^${kind}-\\d{4}-\\d{2}-\\d{2}\\.ndjson$`);
  return {
    readAll() {
      const records: unknown[] = [];
      let skippedLines = 0;
      const files = readdirSync(dir).filter((name) => pattern.test(name)).sort();
      for (const name of files) {
        const path = join(dir, name);
        const text = readFileSync(path, 'utf8');
        // A torn last line would otherwise glue onto the next append and spoil a good record too.
        if (text.length > 0 && !text.endsWith('\n')) appendFileSync(path, '\n');
        for (const line of text.split('\n')) {
          if (line.trim() === '') continue;
          try {
            records.push(JSON.parse(line) as unknown);
          } catch {
            skippedLines++;
          }
        }
      }
      return { records, skippedLines };
    },
    append(records, day) {
      if (records.length === 0) return;
      let text = '';
      for (const record of records) text += `${JSON.stringify(record)}\n`;
      appendFileSync(join(dir, `${kind}-${day}.ndjson`), text);
    },
  };
}

/** The UTC day of an ISO timestamp, which names the file a record goes to. */
export function dayOf(isoTimestamp: string): string {
  return isoTimestamp.slice(0, 10);
}
