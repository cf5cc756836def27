/**
 * A top-level JSON array read element by element, so an export of any size needs memory for one
 * element at a time, not the whole document. The scanner only finds where each element ends
 * (tracking strings, escapes and nesting); JSON.parse, which is fast and exact, parses the element.
 * A broken element is one rejected row; broken structure (no `[`, an unclosed array) stops the import.
 */
import {
  MalformedInputError,
  MAX_RECORD_CHARS,
  OVERSIZE_HEAD_CHARS,
  oversizeReason,
  type RecordReader,
  type RecordSink,
} from './record-sink';

const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const NEWLINE = 10;

const BEFORE_ARRAY = 0;
const IN_ARRAY = 1;
const AFTER_ARRAY = 2;

function isSpace(c: number): boolean {
  return c === 32 || c === NEWLINE || c === 13 || c === 9;
}

/** Hands one element to the sink: its value, or why it is not JSON. */
function emitElement(sink: RecordSink, elementLine: number, json: string): void {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    sink.invalid(elementLine, `not valid JSON (${error instanceof Error ? error.message : String(error)})`, json.slice(0, 10_000));
    return;
  }
  sink.record(elementLine, value);
}

export function createJsonArrayReader(sink: RecordSink): RecordReader {
  let phase = BEFORE_ARRAY;
  let line = 1;
  /** Nesting inside the current element: 0 between elements. */
  let depth = 0;
  let inString = false;
  let escape = false;
  /** Text of the current element carried over from earlier pieces. */
  let pending = '';
  let hasElement = false;
  let elementLine = 1;
  /** Whether a comma was read since the last element: `[1,]` and `[,1]` are structural errors. */
  let expectElement = false;
  /** Characters written before the current piece. */
  let base = 0;
  let recordEnd = 0;
  /** The element being read is over MAX_RECORD_CHARS: `pending` keeps its start, the rest is scanned, not kept. */
  let oversize = false;

  /** `end`: where the element's text ends (at its comma or the closing bracket), over everything written. */
  function finishElement(text: string, end: number): void {
    if (oversize) {
      oversize = false;
      recordEnd = end;
      sink.invalid(elementLine, oversizeReason('the array element'), text.trimStart().slice(0, OVERSIZE_HEAD_CHARS));
      return;
    }
    const trimmed = text.trim();
    if (trimmed === '') throw new MalformedInputError(`line ${line}: an array element is missing (two commas, or a comma before ])`);
    recordEnd = end;
    emitElement(sink, elementLine, trimmed);
  }

  return {
    write(text) {
      let start = 0; // where the current element's text begins in this piece
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (inString) {
          if (escape) escape = false;
          else if (c === BACKSLASH) escape = true;
          else if (c === QUOTE) inString = false;
          continue;
        }
        if (c === NEWLINE) line++;
        if (phase === IN_ARRAY) {
          if (depth === 0 && (c === COMMA || c === CLOSE_BRACKET)) {
            if (hasElement) {
              finishElement(oversize ? pending : pending + text.slice(start, i), base + i);
              pending = '';
              hasElement = false;
              expectElement = c === COMMA;
            } else if (c === COMMA || expectElement) {
              throw new MalformedInputError(`line ${line}: an array element is missing (two commas, or a comma before ])`);
            }
            if (c === CLOSE_BRACKET) phase = AFTER_ARRAY;
            continue;
          }
          if (!hasElement) {
            if (isSpace(c)) continue;
            hasElement = true;
            elementLine = line;
            start = i;
          }
          if (c === QUOTE) inString = true;
          else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
          else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
            if (depth === 0) throw new MalformedInputError(`line ${line}: unbalanced ${String.fromCharCode(c)}`);
            depth--;
          }
        } else if (phase === BEFORE_ARRAY) {
          if (isSpace(c)) continue;
          if (c !== OPEN_BRACKET) {
            throw new MalformedInputError(
              `line ${line}: a JSON input must be one array of events, starting with [; for one object per line use --format ndjson`,
            );
          }
          phase = IN_ARRAY;
        } else if (!isSpace(c)) {
          throw new MalformedInputError(`line ${line}: unexpected text after the closing ] of the array`);
        }
      }
      if (hasElement && !oversize) {
        pending += text.slice(start);
        if (pending.length > MAX_RECORD_CHARS) {
          oversize = true;
          pending = pending.slice(0, OVERSIZE_HEAD_CHARS);
        }
      }
      base += text.length;
    },
    end() {
      if (phase === BEFORE_ARRAY) throw new MalformedInputError('the input is empty; expected a JSON array of events');
      if (phase === IN_ARRAY) throw new MalformedInputError(`the JSON array is not closed: the input ends inside it (line ${line})`);
    },
    recordEnd: () => recordEnd,
    settledThrough: () => (oversize ? base : recordEnd),
  };
}
