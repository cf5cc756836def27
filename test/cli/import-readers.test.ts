// The streaming readers must give the same records however the input is cut into pieces: a piece
// may end inside a quoted field, between the two quotes of an escaped quote, or inside a string.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createCsvReader } from '../../src/cli/import/csv-reader';
import { createInputDigest } from '../../src/cli/import/input-digest';
import { createJsonArrayReader } from '../../src/cli/import/json-array-reader';
import { createNdjsonReader } from '../../src/cli/import/ndjson-reader';
import type { RecordReader, RecordSink } from '../../src/cli/import/record-sink';

type Seen = Array<{ line: number; value?: unknown; reason?: string }>;

function collect(make: (sink: RecordSink) => RecordReader, pieces: string[]): Seen {
  const seen: Seen = [];
  const reader = make({
    record: (line, value) => seen.push({ line, value }),
    invalid: (line, reason) => seen.push({ line, reason }),
  });
  for (const piece of pieces) reader.write(piece);
  reader.end();
  return seen;
}

/** Every way of cutting the text in two, plus one character at a time. */
function cuts(text: string): string[][] {
  const all: string[][] = [[text], [...text]];
  for (let i = 1; i < text.length; i++) all.push([text.slice(0, i), text.slice(i)]);
  return all;
}

describe('CSV', () => {
  const csv =
    'event,distinct_id,note\r\n' +
    'a,u1,plain\r\n' +
    '"b","u2","with, comma"\n' +
    'c,u3,"say ""hi"""\n' +
    'd,u4,"two\nlines"\n' +
    '\n' +
    'e,u5,""\n' +
    'f,u6\n' +
    'g,u7,"closed"x\n' +
    'h,u8,last';

  const expected: Seen = [
    { line: 2, value: { event: 'a', distinct_id: 'u1', note: 'plain' } },
    { line: 3, value: { event: 'b', distinct_id: 'u2', note: 'with, comma' } },
    { line: 4, value: { event: 'c', distinct_id: 'u3', note: 'say "hi"' } },
    { line: 5, value: { event: 'd', distinct_id: 'u4', note: 'two\nlines' } },
    { line: 8, value: { event: 'e', distinct_id: 'u5', note: '' } },
    { line: 9, reason: 'has 2 fields; the header has 3' },
    { line: 10, reason: 'has text after the closing quote of a field' },
    { line: 11, value: { event: 'h', distinct_id: 'u8', note: 'last' } },
  ];

  it('handles quotes, escaped quotes, newlines in quoted fields, CRLF and bad rows, cut anywhere', () => {
    for (const pieces of cuts(csv)) expect(collect(createCsvReader, pieces)).toEqual(expected);
  });

  it('refuses a quoted field that never closes', () => {
    expect(() => collect(createCsvReader, ['a,b\n1,"open\n'])).toThrow(/never closes/);
  });
});

describe('JSON array', () => {
  const json = '[\n  {"event":"a","s":"x,]}\\"y"},\n  {"event":"b","n":[1,{"k":2}]},\n  {"event": bad},\n  {"event":"c"}\n]\n';
  const expected = [
    { line: 2, value: { event: 'a', s: 'x,]}"y' } },
    { line: 3, value: { event: 'b', n: [1, { k: 2 }] } },
    { line: 4, reason: expect.stringMatching(/^not valid JSON/) },
    { line: 5, value: { event: 'c' } },
  ];

  it('yields each element with its line, cut anywhere; a broken element is one bad row', () => {
    for (const pieces of cuts(json)) expect(collect(createJsonArrayReader, pieces)).toEqual(expected);
  });

  it('stops on broken structure', () => {
    expect(() => collect(createJsonArrayReader, ['{"event":"a"}'])).toThrow(/starting with \[/);
    expect(() => collect(createJsonArrayReader, ['[{"event":"a"}'])).toThrow(/not closed/);
    expect(() => collect(createJsonArrayReader, ['[{"event":"a"},,{}]'])).toThrow(/missing/);
    expect(collect(createJsonArrayReader, ['[]'])).toEqual([]);
  });
});

describe('NDJSON', () => {
  it('reads a line at a time, skips blank lines, reports bad JSON with its line', () => {
    const text = '{"a":1}\r\n\n{bad}\n{"a":2}';
    for (const pieces of cuts(text)) {
      expect(collect(createNdjsonReader, pieces)).toEqual([
        { line: 1, value: { a: 1 } },
        { line: 3, reason: expect.stringMatching(/^not valid JSON/) },
        { line: 4, value: { a: 2 } },
      ]);
    }
  });
});

describe('where each record ends (the checkpoint digest is taken there)', () => {
  /** recordEnd() as seen from inside each sink call. */
  function ends(make: (sink: RecordSink) => RecordReader, pieces: string[]): number[] {
    const seen: number[] = [];
    const reader: RecordReader = make({ record: () => seen.push(reader.recordEnd()), invalid: () => seen.push(reader.recordEnd()) });
    for (const piece of pieces) reader.write(piece);
    reader.end();
    return seen;
  }

  it('is the same however the input is cut, and blank lines or a header do not move it', () => {
    const ndjson = '{"a":1}\r\n\n{bad}\n{"a":2}';
    const csv = 'a,b\n1,"x\ny"\n\n2,z';
    const json = '[ {"a":1} ,\n{"a":[2]}]';
    const cases = [
      [createNdjsonReader, ndjson, [9, 16, 23]],
      [createCsvReader, csv, [12, 16]],
      [createJsonArrayReader, json, [10, 21]],
    ] as const;
    for (const [make, text, expected] of cases) {
      for (const pieces of cuts(text)) expect(ends(make, pieces)).toEqual(expected);
    }
  });
});

describe('input digest', () => {
  it('is the sha256 of the text up to the offset asked for, however the text came in pieces', () => {
    const text = 'first row\nsecond row ünïcödé\nthird';
    const sha = (t: string) => createHash('sha256').update(t).digest('hex');
    for (const pieces of cuts(text)) {
      const digest = createInputDigest();
      let added = 0;
      const offsets = [10, 30, text.length];
      const seen: string[] = [];
      for (const piece of pieces) {
        digest.add(piece);
        added += piece.length;
        while (offsets.length > 0 && offsets[0]! <= added) seen.push(digest.through(offsets.shift()!));
      }
      expect(seen).toEqual([sha(text.slice(0, 10)), sha(text.slice(0, 30)), sha(text)]);
    }
  });
});

describe('a record too long to keep', () => {
  // 17 M characters in 1 MB pieces, as the importer reads them: over MAX_RECORD_CHARS (16 M).
  const huge = (piece: string) => Array.from({ length: 17 }, () => piece.repeat(1024 * 1024));
  const reasons = (seen: Seen) => seen.map((entry) => entry.reason ?? 'ok');

  it('is one rejected row in every format, with its line; the records around it are read', () => {
    const ndjson = collect(createNdjsonReader, ['{"a":1}\n{"b":"', ...huge('x'), '"}\n{"c":3}\n']);
    expect(ndjson.map((entry) => entry.line)).toEqual([1, 2, 3]);
    expect(reasons(ndjson)).toEqual(['ok', expect.stringMatching(/the line is longer than 16 M characters/), 'ok']);

    const json = collect(createJsonArrayReader, ['[{"a":1},\n{"b":"', ...huge('x'), '"},\n{"c":3}]']);
    expect(json.map((entry) => entry.line)).toEqual([1, 2, 3]);
    expect(reasons(json)).toEqual(['ok', expect.stringMatching(/the array element is longer than 16 M characters/), 'ok']);

    const csv = collect(createCsvReader, ['k,v\n1,a\n2,"', ...huge('y'), '"\n3,c\n']);
    expect(csv.map((entry) => entry.line)).toEqual([2, 3, 4]);
    expect(reasons(csv)).toEqual(['ok', expect.stringMatching(/a field is longer than 16 M characters/), 'ok']);
  });

  it('is not held while it is skipped: the digest may settle past it', () => {
    const reader = createNdjsonReader({ record: () => {}, invalid: () => {} });
    reader.write('{"a":1}\n');
    for (const piece of huge('x')) reader.write(piece);
    expect(reader.recordEnd()).toBe(8);
    expect(reader.settledThrough()).toBe(8 + 17 * 1024 * 1024);
  });
});
