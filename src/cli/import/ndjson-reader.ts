/**
 * Newline-delimited JSON: one object per line. Blank lines are skipped (not rows), so trailing
 * newlines and hand-edited files do not produce rejects. `\r\n` endings are accepted.
 */
import { MAX_RECORD_CHARS, OVERSIZE_HEAD_CHARS, oversizeReason, type RecordReader, type RecordSink } from './record-sink';

export function createNdjsonReader(sink: RecordSink): RecordReader {
  let carry = '';
  let line = 0;
  /** Characters written before the current piece. */
  let base = 0;
  let recordEnd = 0;
  /** The line being read is over MAX_RECORD_CHARS: its start is kept in `carry`, the rest skipped. */
  let oversize = false;

  function handle(text: string, end: number): void {
    line++;
    const content = text.endsWith('\r') ? text.slice(0, -1) : text;
    if (content.trim() === '') return;
    recordEnd = end;
    let value: unknown;
    try {
      value = JSON.parse(content);
    } catch (error) {
      sink.invalid(line, `not valid JSON (${error instanceof Error ? error.message : String(error)})`, content);
      return;
    }
    sink.record(line, value);
  }

  /** The end of a line whose start is in `carry` (plus `rest`, the part in this piece). */
  function finishCarried(rest: string, end: number): void {
    if (!oversize && carry.length + rest.length <= MAX_RECORD_CHARS) {
      handle(carry + rest, end);
    } else {
      line++;
      recordEnd = end;
      sink.invalid(line, oversizeReason('the line'), carry.slice(0, OVERSIZE_HEAD_CHARS));
    }
    carry = '';
    oversize = false;
  }

  function keep(text: string): void {
    if (oversize) return;
    if (carry.length + text.length > MAX_RECORD_CHARS) {
      oversize = true;
      carry = (carry + text.slice(0, OVERSIZE_HEAD_CHARS)).slice(0, OVERSIZE_HEAD_CHARS);
      return;
    }
    carry += text;
  }

  return {
    write(text) {
      let newline = text.indexOf('\n');
      if (newline === -1) {
        keep(text);
        base += text.length;
        return;
      }
      finishCarried(text.slice(0, newline), base + newline + 1);
      let start = newline + 1;
      while ((newline = text.indexOf('\n', start)) !== -1) {
        handle(text.slice(start, newline), base + newline + 1);
        start = newline + 1;
      }
      keep(text.slice(start));
      base += text.length;
    },
    end() {
      if (carry !== '' || oversize) finishCarried('', base);
    },
    recordEnd: () => recordEnd,
    settledThrough: () => (oversize ? base : recordEnd),
  };
}
