/**
 * Reads a file line by line as a stream, so a day file of any size is read in constant memory: no
 * whole-file string (V8 caps one string near 512 MB), and a line too long to be a record is skipped
 * without being held.
 */
import { createReadStream } from 'node:fs';

const NEWLINE = 0x0a;

export interface LinesRead {
  /** Lines over the cap, counted and skipped. */
  overlong: number;
  /** False when the file does not end with a newline: its last line was torn by a crash. */
  endsWithNewline: boolean;
}

export async function forEachLine(path: string, onLine: (line: string) => void, maxLineBytes: number): Promise<LinesRead> {
  let pending: Buffer[] = [];
  let pendingLength = 0;
  let skipping = false;
  let overlong = 0;
  let last = NEWLINE;

  const finishLine = (tail: Buffer): void => {
    const line = skipping ? undefined : pendingLength === 0 ? tail : Buffer.concat([...pending, tail]);
    skipping = false;
    pending = [];
    pendingLength = 0;
    if (line !== undefined && line.length > 0) onLine(line.toString('utf8'));
  };
  const keepPartial = (part: Buffer): void => {
    if (skipping || part.length === 0) return;
    if (pendingLength + part.length > maxLineBytes) {
      overlong++;
      skipping = true;
      pending = [];
      pendingLength = 0;
      return;
    }
    pending.push(part);
    pendingLength += part.length;
  };

  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 })) {
    const bytes = chunk as Buffer;
    if (bytes.length === 0) continue;
    last = bytes[bytes.length - 1] ?? last;
    let start = 0;
    for (let end = bytes.indexOf(NEWLINE, start); end !== -1; end = bytes.indexOf(NEWLINE, start)) {
      const part = bytes.subarray(start, end);
      if (!skipping && pendingLength + part.length > maxLineBytes) {
        overlong++;
        skipping = true;
      }
      finishLine(part);
      start = end + 1;
    }
    keepPartial(bytes.subarray(start));
  }
  finishLine(Buffer.alloc(0));
  return { overlong, endsWithNewline: last === NEWLINE };
}
