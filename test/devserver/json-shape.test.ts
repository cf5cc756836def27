// The bracket scan of a request body: how deep it nests, and how long the longest object or array is
// at each of the first three levels (which bounds every event's size without serialising it again).
// Brackets and escaped quotes inside strings are text, not structure.
import { describe, expect, it } from 'vitest';
import { MAX_NESTING_DEPTH, scanJsonShape, SERIALISED_BYTES_PER_CHAR } from '../../src/devserver/ingest/nesting';

describe('scanJsonShape', () => {
  it('measures the body, the batch array and its longest event', () => {
    const small = '{"event":"a","distinct_id":"u"}';
    const large = '{"event":"b","distinct_id":"u","properties":{"x":[1,2,3]}}';
    const body = `{"api_key":"k","batch":[${small},${large}]}`;
    expect(scanJsonShape(body)).toEqual({ tooDeep: false, longestContainer: [body.length, small.length + large.length + 3, large.length] });
  });

  it('takes brackets and escaped quotes inside strings for text', () => {
    const event = String.raw`{"event":"a \"[{quoted}]\" \\","distinct_id":"{["}`;
    const body = `[${event}]`;
    expect(scanJsonShape(body)).toEqual({ tooDeep: false, longestContainer: [body.length, event.length, 0] });
  });

  it('refuses one level past the limit and takes the limit itself', () => {
    const nest = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
    expect(scanJsonShape(nest(MAX_NESTING_DEPTH)).tooDeep).toBe(false);
    expect(scanJsonShape(nest(MAX_NESTING_DEPTH + 1)).tooDeep).toBe(true);
  });

  it('bounds the serialised size: numbers grow most, from 1e20 to 21 digits, lone surrogates to 6 bytes', () => {
    for (const source of ['[1e20]', '[-1E20]', '["\\ud800"]', '["\uD800"]', '["é"]', '["\\u00e9"]', '[0.1e1]']) {
      const bytes = Buffer.byteLength(JSON.stringify(JSON.parse(source)));
      expect(bytes).toBeLessThanOrEqual(source.length * SERIALISED_BYTES_PER_CHAR);
    }
  });
});
