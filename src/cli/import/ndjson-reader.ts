/**
 * Newline-delimited JSON: one object per line. Blank lines are skipped (not rows), so trailing
 * newlines and hand-edited files do not produce rejects. `\r\n` endings are accepted.
 */
import type { RecordReader, RecordSink } from './record-sink';

export function createNdjsonReader(sink: RecordSink): RecordReader {
  let carry = '';
  let line = 0;
  /** Characters written before the current piece. */
  let base = 0;
  let recordEnd = 0;

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

  return {
    write(text) {
      let newline = text.indexOf('\n');
      if (newline === -1) {
        carry += text;
        base += text.length;
        return;
      }
      handle(carry + text.slice(0, newline), base + newline + 1);
      carry = '';
      let start = newline + 1;
      while ((newline = text.indexOf('\n', start)) !== -1) {
        handle(text.slice(start, newline), base + newline + 1);
        start = newline + 1;
      }
      carry = text.slice(start);
      base += text.length;
    },
    end() {
      if (carry !== '') handle(carry, base);
      carry = '';
    },
    recordEnd: () => recordEnd,
  };
}
