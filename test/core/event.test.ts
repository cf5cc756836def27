import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEvent, shareProperties } from '../../src/core/event';

const sdk = { $lib: 'test', $lib_version: '1' };

function ok(input: Parameters<typeof buildEvent>[0], max?: number) {
  const result = buildEvent(input, sdk, max);
  if (!result.ok) throw new Error('expected ok, got: ' + result.error.message);
  return { ...result, wire: JSON.parse(result.record.json) as Record<string, any> };
}

function bad(input: Parameters<typeof buildEvent>[0], max?: number) {
  const result = buildEvent(input, sdk, max);
  if (result.ok) throw new Error('expected a rejection');
  return result.error;
}

describe('buildEvent: the wire shape', () => {
  it('produces uuid, event, distinct_id at the top level and in properties (docs/wire-protocol.md), and an ISO timestamp', () => {
    const { wire, record } = ok({ event: 'signed up', distinctId: 'u1', properties: { plan: 'pro' } });
    expect(wire.uuid).toBe(record.uuid);
    expect(wire.event).toBe('signed up');
    expect(wire.distinct_id).toBe('u1');
    expect(wire.properties).toEqual({ plan: 'pro', distinct_id: 'u1', $lib: 'test', $lib_version: '1' });
    expect(new Date(wire.timestamp).toISOString()).toBe(wire.timestamp);
  });

  it("puts the properties' distinct_id first, right after the top-level one (gzip folds the copy)", () => {
    const plain = ok({ event: 'e', distinctId: 'u1', properties: { plan: 'pro' } });
    expect(plain.record.json).toContain('"distinct_id":"u1","properties":{"distinct_id":"u1","plan":"pro",');
    expect(Object.keys(ok({ event: 'e', distinctId: 'u1' }).wire.properties)[0]).toBe('distinct_id');
    // The merged path (a caller's distinct_id, a toJSON) keeps the same place.
    const merged = ok({ event: 'e', distinctId: 'u1', properties: { plan: 'pro', distinct_id: 'other' } });
    expect(Object.keys(merged.wire.properties)).toEqual(['distinct_id', 'plan', '$lib', '$lib_version']);
    expect(merged.wire.properties.distinct_id).toBe('u1');
  });

  it('lets SDK properties win a name collision without duplicate keys in the JSON', () => {
    const { record, wire } = ok({ event: 'e', distinctId: 'u', properties: { $lib: 'mine', x: 1 } });
    expect(wire.properties.$lib).toBe('test');
    expect(record.json.match(/"\$lib"/g)).toHaveLength(1);
  });

  it('shared properties (serialised once for many events) are spliced in; the caller and the per-event SDK properties win over them, without duplicate keys', () => {
    const shared = shareProperties({ $current_url: 'https://shop.test/', utm_source: 'mail', $lib: 'shared' });
    const build = (properties: Record<string, unknown>) => {
      const result = buildEvent({ event: 'e', distinctId: 'u', properties }, sdk, undefined, undefined, shared);
      if (!result.ok) throw new Error(result.error.message);
      return { json: result.record.json, props: JSON.parse(result.record.json).properties };
    };
    const plain = build({ plan: 'pro' });
    expect(plain.props).toEqual({
      distinct_id: 'u',
      plan: 'pro',
      $current_url: 'https://shop.test/',
      utm_source: 'mail',
      $lib: 'test',
      $lib_version: '1',
    });
    expect(plain.json.match(/"\$lib"/g)).toHaveLength(1);
    const mine = build({ utm_source: 'mine' });
    expect(mine.props).toMatchObject({ utm_source: 'mine', $current_url: 'https://shop.test/', $lib: 'test' });
    expect(mine.json.match(/"utm_source"/g)).toHaveLength(1);
  });

  it('keeps a caller-supplied uuid (lower-cased) and normalises timestamps to ISO', () => {
    const uuid = '0190A0A0-0000-7000-8000-00000000000A';
    expect(ok({ event: 'e', distinctId: 'u', uuid }).wire.uuid).toBe(uuid.toLowerCase());
    const date = new Date(Date.UTC(2020, 0, 2, 3, 4, 5));
    expect(ok({ event: 'e', distinctId: 'u', timestamp: date }).wire.timestamp).toBe('2020-01-02T03:04:05.000Z');
    expect(ok({ event: 'e', distinctId: 'u', timestamp: date.getTime() }).wire.timestamp).toBe('2020-01-02T03:04:05.000Z');
    expect(ok({ event: 'e', distinctId: 'u', timestamp: '2020-01-02T04:04:05+01:00' }).wire.timestamp).toBe('2020-01-02T03:04:05.000Z');
  });
});

describe('buildEvent: bad input is rejected with a message naming the problem', () => {
  it.each([
    [{ event: '', distinctId: 'u' }, /event name/],
    [{ event: '   ', distinctId: 'u' }, /event name/],
    [{ event: undefined, distinctId: 'u' }, /event name.*got nothing/],
    [{ event: 42, distinctId: 'u' }, /event name.*number/],
    [{ event: 'e', distinctId: undefined }, /distinct id.*got nothing/],
    [{ event: 'e', distinctId: '' }, /distinct id.*empty string/],
    [{ event: 'e', distinctId: '  ' }, /distinct id/],
    [{ event: 'e', distinctId: { id: 1 } }, /distinct id.*object/],
    [{ event: 'e', distinctId: NaN }, /distinct id/],
    [{ event: 'e', distinctId: 'u', properties: [1, 2] }, /properties must be a plain object.*array/],
    [{ event: 'e', distinctId: 'u', properties: 'text' }, /properties must be a plain object/],
    [{ event: 'e', distinctId: 'u', timestamp: 'yesterday-ish' }, /timestamp/],
    [{ event: 'e', distinctId: 'u', timestamp: new Date(NaN) }, /timestamp/],
    [{ event: 'e', distinctId: 'u', uuid: 'abc' }, /uuid must be a UUID/],
  ])('%j', (input, message) => {
    const error = bad(input);
    expect(error.name).toBe('InvalidEventError');
    expect(error.reason).toBe('invalid');
    expect(error.message).toMatch(message);
  });

  it('rejects an event over the size limit as too_large, counting UTF-8 bytes', () => {
    const error = bad({ event: 'big', distinctId: 'u', properties: { blob: 'x'.repeat(1_000_001) } });
    expect(error.reason).toBe('too_large');
    expect(error.message).toMatch(/over the 1000000-byte limit/);
    // 400,000 three-byte characters: 1.2 MB in UTF-8 although only 400,000 UTF-16 units.
    expect(bad({ event: 'big', distinctId: 'u', properties: { text: '€'.repeat(400_000) } }).reason).toBe('too_large');
    expect(ok({ event: 'fits', distinctId: 'u', properties: { text: '€'.repeat(300_000) } }).wire.event).toBe('fits');
  });
});

describe('buildEvent: awkward values are normalised, not fatal', () => {
  it('null properties become {} and a numeric distinct id a string', () => {
    const { wire, notes } = ok({ event: 'e', distinctId: 42, properties: null });
    expect(wire.properties.distinct_id).toBe('42');
    expect(notes.join()).toMatch(/number/);
  });

  it('circular references, BigInt, functions, NaN, Infinity and Dates', () => {
    const props: Record<string, unknown> = {
      big: 12345678901234567890n,
      fn: () => 1,
      nan: NaN,
      inf: Infinity,
      when: new Date(Date.UTC(2021, 5, 1)),
      nested: { list: [1, 2n] },
    };
    props.self = props;
    const { wire, notes } = ok({ event: 'e', distinctId: 'u', properties: props });
    expect(wire.properties.big).toBe('12345678901234567890');
    expect(wire.properties.self).toBe('[Circular]');
    expect('fn' in wire.properties).toBe(false);
    expect(wire.properties.nan).toBeNull();
    expect(wire.properties.inf).toBeNull();
    expect(wire.properties.when).toBe('2021-06-01T00:00:00.000Z');
    expect(wire.properties.nested).toEqual({ list: [1, '2'] });
    expect(notes.some((note) => note.includes('properties.self') && note.includes('circular'))).toBe(true);
    expect(notes.some((note) => note.includes('properties.big') && note.includes('BigInt'))).toBe(true);
  });

  it('a repeated (not circular) object is kept, not marked circular', () => {
    const shared = { a: 1 };
    const { wire } = ok({ event: 'e', distinctId: 'u', properties: { x: shared, y: shared, z: 1n } });
    expect(wire.properties.x).toEqual({ a: 1 });
    expect(wire.properties.y).toEqual({ a: 1 });
  });
});

describe('buildEvent: properties that are not a plain object never reach the queue', () => {
  class Point {
    constructor(
      readonly x: number,
      readonly y: number,
    ) {}
  }
  it.each([
    ['a Map', new Map([['plan', 'pro']]), /properties must be a plain object; got a Map/],
    ['a Set', new Set(['pro']), /properties must be a plain object; got a Set/],
    ['a Date', new Date(0), /properties must be a plain object; got a Date/],
    ['a boxed string', new String('pro'), /properties must be a plain object; got a String/],
    ['a toJSON() returning a string', { toJSON: () => 'flat' }, /properties must be a plain object; got an object/],
    ['a toJSON() returning nothing', { toJSON: () => undefined }, /properties must be a plain object/],
  ])('%s is refused with a message naming it', (_label, properties, message) => {
    const error = bad({ event: 'e', distinctId: 'u', properties });
    expect(error.reason).toBe('invalid');
    expect(error.message).toMatch(message);
  });

  it('a class instance is sent as its fields (as JSON.stringify would), a toJSON() object as its result', () => {
    expect(ok({ event: 'e', distinctId: 'u', properties: new Point(1, 2) }).wire.properties).toMatchObject({
      x: 1,
      y: 2,
      distinct_id: 'u',
    });
    const { record, wire } = ok({ event: 'e', distinctId: 'u', properties: { toJSON: () => ({ plan: 'pro', $lib: 'theirs' }) } });
    expect(wire.properties).toEqual({ plan: 'pro', distinct_id: 'u', $lib: 'test', $lib_version: '1' });
    expect(record.json.match(/"\$lib"/g)).toHaveLength(1);
  });

  it("a caller's distinct_id is replaced and $distinct_id left out, without duplicate keys", () => {
    const { record, wire } = ok({ event: 'e', distinctId: 'u', properties: { distinct_id: 'other', $distinct_id: 'x', plan: 'pro' } });
    expect(wire.properties).toEqual({ plan: 'pro', distinct_id: 'u', $lib: 'test', $lib_version: '1' });
    // Once at the top level, once in properties: never twice in one object.
    expect(record.json.match(/distinct_id/g)).toHaveLength(2);
  });
});

describe('buildEvent: timestamps are ISO 8601, a Date or epoch milliseconds', () => {
  // Not UTC, so a zoneless string read in the local zone (as Date alone would) fails the test.
  const zone = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = 'America/New_York';
  });
  afterAll(() => {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  });

  it.each([
    ['2024-03-07T10:00:00Z', '2024-03-07T10:00:00.000Z'],
    ['2024-03-07T10:00:00.123456+02:00', '2024-03-07T08:00:00.123Z'],
    ['2024-03-07T10:00:00+0200', '2024-03-07T08:00:00.000Z'],
    ['2024-03-07 10:00', '2024-03-07T10:00:00.000Z'],
    // No zone: read as UTC, as the server reads it, whatever the process's TZ is.
    ['2024-03-07T10:00:00', '2024-03-07T10:00:00.000Z'],
    ['2024-03-07', '2024-03-07T00:00:00.000Z'],
    [' 2024-03-07T10:00:00Z ', '2024-03-07T10:00:00.000Z'],
  ])('%j is sent as %s', (timestamp, sent) => {
    expect(ok({ event: 'e', distinctId: 'u', timestamp }).wire.timestamp).toBe(sent);
  });

  it.each(['March 7 2024', '07/03/2024', 'Thu, 07 Mar 2024 10:00:00 GMT', '2024-13-01', '2024-03-07T10:00:00+01', '1709805600'])(
    '%j is refused, naming the accepted forms',
    (timestamp) => {
      expect(bad({ event: 'e', distinctId: 'u', timestamp }).message).toMatch(
        /timestamp must be a Date, an ISO 8601 string or epoch milliseconds; got the string/,
      );
    },
  );

  it('a number that can only be epoch seconds is refused with the fix, not sent as 1970', () => {
    const error = bad({ event: 'e', distinctId: 'u', timestamp: 1_709_805_600 });
    expect(error.message).toMatch(/\(epoch seconds\? multiply by 1000\); got the number 1709805600/);
    expect(ok({ event: 'e', distinctId: 'u', timestamp: 1_709_805_600_000 }).wire.timestamp).toBe('2024-03-07T10:00:00.000Z');
    expect(bad({ event: 'e', distinctId: 'u', timestamp: NaN }).message).not.toMatch(/epoch seconds/);
  });
});
