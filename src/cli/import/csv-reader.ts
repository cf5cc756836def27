/**
 * CSV (RFC 4180) with a header row, read in pieces of any size: quoted fields may hold the
 * delimiter, doubled quotes (`""` is one quote) and newlines, and a piece may end anywhere, even
 * between the two quotes of an escaped quote. Each record becomes an object keyed by the header.
 *
 * One character at a time, because a quoted field may span pieces; on the importer's hot path
 * this still costs far less than JSON-serialising the event it becomes.
 */
import { setProperty } from './own-property';
import {
  MalformedInputError,
  MAX_RECORD_CHARS,
  OVERSIZE_HEAD_CHARS,
  oversizeReason,
  type RecordReader,
  type RecordSink,
} from './record-sink';

const QUOTE = 34;
const NEWLINE = 10;
const RETURN = 13;

// Parser states (plain numbers: cheaper to compare in the hot loop than strings).
const FIELD_START = 0;
const UNQUOTED = 1;
const QUOTED = 2;
/** Just read a quote inside a quoted field: either the closing quote or the first of `""`. */
const QUOTE_IN_QUOTED = 3;

export function createCsvReader(sink: RecordSink, delimiter = ','): RecordReader {
  const separator = delimiter.charCodeAt(0);
  let header: string[] | undefined;
  let fields: string[] = [];
  let field = '';
  let state = FIELD_START;
  let line = 1;
  let recordLine = 1;
  let problem: string | undefined;
  /** Characters written before the current piece. */
  let base = 0;
  let recordEnd = 0;
  /** A field over MAX_RECORD_CHARS is open: no record can end before the text written so far. */
  let oversize = false;

  function endField(): void {
    fields.push(field);
    field = '';
  }

  /** `end`: where the record's text ends, counted over everything written. */
  function endRecord(end: number): void {
    oversize = false;
    const done = fields;
    fields = [];
    const start = recordLine;
    const issue = problem;
    problem = undefined;
    // A blank line is one empty field; skipping it keeps stray blank lines out of the rejects.
    if (done.length === 1 && done[0] === '') return;
    if (header === undefined) {
      header = readHeader(done);
      sink.header?.(header);
      return;
    }
    recordEnd = end;
    if (issue !== undefined) return sink.invalid(start, issue, done.join(delimiter));
    if (done.length !== header.length) {
      return sink.invalid(start, `has ${done.length} fields; the header has ${header.length}`, done.join(delimiter));
    }
    const value: Record<string, string> = {};
    for (let i = 0; i < header.length; i++) setProperty(value, header[i]!, done[i]!);
    sink.record(start, value);
  }

  return {
    write(text) {
      // Plain text between special characters is appended as one slice, not per character.
      let from = 0;
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        switch (state) {
          case FIELD_START:
            if (fields.length === 0) recordLine = line;
            if (c === QUOTE) {
              state = QUOTED;
              from = i + 1;
            } else if (c === separator) {
              endField();
            } else if (c === NEWLINE) {
              line++;
              if (fields.length > 0) endField();
              else fields.push('');
              endRecord(base + i + 1);
            } else if (c !== RETURN) {
              state = UNQUOTED;
              from = i;
            }
            break;
          case UNQUOTED:
            if (c === separator || c === NEWLINE) {
              field += text.slice(from, i);
              // The \r of a \r\n ending may have arrived at the end of the previous piece.
              if (c === NEWLINE && field.charCodeAt(field.length - 1) === RETURN) field = field.slice(0, -1);
              endField();
              state = FIELD_START;
              if (c === NEWLINE) {
                line++;
                endRecord(base + i + 1);
              }
            } else if (c === QUOTE) {
              problem ??= 'has a quote inside an unquoted field; quote the whole field and double the inner quote';
            }
            break;
          case QUOTED:
            if (c === QUOTE) {
              field += text.slice(from, i);
              state = QUOTE_IN_QUOTED;
            } else if (c === NEWLINE) line++;
            break;
          case QUOTE_IN_QUOTED:
            if (c === QUOTE) {
              // An escaped quote: keep one and stay inside the field.
              state = QUOTED;
              from = i;
            } else if (c === separator || c === NEWLINE) {
              endField();
              state = FIELD_START;
              if (c === NEWLINE) {
                line++;
                endRecord(base + i + 1);
              }
            } else if (c !== RETURN) {
              problem ??= 'has text after the closing quote of a field';
              state = UNQUOTED;
              from = i;
            }
            break;
        }
      }
      // Keep what is open for the next piece.
      if (state === UNQUOTED || state === QUOTED) {
        field += text.slice(from);
        if (field.length > MAX_RECORD_CHARS) {
          // Only its start is kept; the record is rejected when it ends.
          problem ??= oversizeReason('a field');
          field = field.slice(0, OVERSIZE_HEAD_CHARS);
          oversize = true;
        }
      }
      base += text.length;
    },
    end() {
      if (state === QUOTED) {
        throw new MalformedInputError(`the quoted field starting on line ${recordLine} never closes before the end of the input`);
      }
      if (state === UNQUOTED || state === QUOTE_IN_QUOTED) {
        if (state === UNQUOTED && field.endsWith('\r')) field = field.slice(0, -1);
        endField();
        endRecord(base);
      } else if (fields.length > 0) {
        endField();
        endRecord(base);
      }
      state = FIELD_START;
    },
    recordEnd: () => recordEnd,
    settledThrough: () => (oversize ? base : recordEnd),
  };
}

function readHeader(names: string[]): string[] {
  const cleaned = names.map((name) => name.trim());
  const seen = new Set<string>();
  for (const name of cleaned) {
    if (name === '') throw new MalformedInputError('the CSV header row has an empty column name');
    if (seen.has(name)) throw new MalformedInputError(`the CSV header row names column "${name}" twice`);
    seen.add(name);
  }
  return cleaned;
}
