// Row validation and mapping (issue 7): what may be sent, and what the rejects file is told.
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAPPING, parseMapping } from '../../src/cli/import/mapping';
import { createCsvReader } from '../../src/cli/import/csv-reader';
import { createRowMapper } from '../../src/cli/import/row-to-event';
import { createRowUuids } from '../../src/cli/import/row-uuid';
import { normalizeTimestamp } from '../../src/cli/import/timestamp';
import { isUuid } from '../../src/core/uuid';

describe('timestamps', () => {
  it('accepts ISO 8601 forms, reads a missing zone as UTC, refuses impossible dates', () => {
    const ms = (value: unknown, format: 'iso' | 'epoch-s' | 'epoch-ms' = 'iso') => {
      const result = normalizeTimestamp(value, format);
      return result.ok ? new Date(result.ms).toISOString() : result.reason;
    };
    expect(ms('2024-03-01T10:20:30.123Z')).toBe('2024-03-01T10:20:30.123Z');
    expect(ms('2024-03-01T10:20:30')).toBe('2024-03-01T10:20:30.000Z');
    expect(ms('2024-03-01 10:20:30+02:00')).toBe('2024-03-01T08:20:30.000Z');
    expect(ms('2024-03-01')).toBe('2024-03-01T00:00:00.000Z');
    expect(ms('2024-02-29T00:00:00.000Z')).toBe('2024-02-29T00:00:00.000Z');
    expect(ms('2023-02-29T00:00:00.000Z')).toMatch(/not a real date/);
    expect(ms('2024-02-30T00:00:00Z')).toMatch(/not a real date/);
    expect(ms('yesterday')).toMatch(/not ISO 8601/);
    expect(ms(1_700_000_000)).toMatch(/epoch-s or epoch-ms/);
    expect(ms(undefined)).toMatch(/missing/);
    expect(ms('1700000000', 'epoch-s')).toBe('2023-11-14T22:13:20.000Z');
    expect(ms(1_700_000_000_123, 'epoch-ms')).toBe('2023-11-14T22:13:20.123Z');
    expect(ms(1_700_000_000_123, 'epoch-s')).toMatch(/epoch-ms/);
  });
});

describe('rows', () => {
  const json = createRowMapper(DEFAULT_MAPPING, 'iso', false);
  const reason = (result: ReturnType<typeof json>) => (result.ok ? 'ok' : result.reason);
  const base = { distinct_id: 'u', timestamp: '2024-01-01T00:00:00Z' };

  it('needs an event, a non-blank distinct id and a timestamp', () => {
    expect(reason(json({ ...base, event: 'x' }))).toBe('ok');
    expect(reason(json({ ...base, event: ' ' }))).toMatch(/event name/);
    expect(reason(json({ ...base, event: 'x', distinct_id: '  ' }))).toMatch(/distinct id/);
    expect(reason(json({ event: 'x', distinct_id: 'u' }))).toMatch(/timestamp is missing/);
    expect(reason(json({ ...base, event: 'x', properties: null }))).toMatch(/properties must be an object/);
  });

  it('checks what special events need', () => {
    expect(reason(json({ ...base, event: '$pageview' }))).toMatch(/\$current_url/);
    expect(reason(json({ ...base, event: '$pageview', properties: { $current_url: 'https://a' } }))).toBe('ok');
    expect(reason(json({ ...base, event: '$screen', properties: {} }))).toMatch(/\$screen_name/);
    expect(reason(json({ ...base, event: '$identify', properties: {} }))).toMatch(/\$set/);
    expect(reason(json({ ...base, event: '$identify', $set: { email: 'a@b' } }))).toBe('ok');
    expect(reason(json({ ...base, event: '$groupidentify', properties: { $group_type: 'company', $group_key: 'c1' } }))).toMatch(
      /\$group_set/,
    );
    expect(
      reason(json({ ...base, event: '$groupidentify', properties: { $group_type: 'company', $group_key: 'c1', $group_set: {} } })),
    ).toBe('ok');
  });

  it("sends $group_identify (the migration guide's spelling) as $groupidentify, with that event's rules", () => {
    const group = { $group_type: 'company', $group_key: 'c1', $group_set: { name: 'Acme' } };
    const result = json({ ...base, event: '$group_identify', properties: group });
    expect(result).toMatchObject({ ok: true, value: { event: '$groupidentify', properties: group } });
    expect(reason(json({ ...base, event: '$group_identify', properties: { $group_type: 'company', $group_key: 'c1' } }))).toMatch(
      /^\$groupidentify needs property \$group_set as an object/,
    );
    expect(reason(json({ ...base, event: '$group_identify', properties: { $group_key: 'c1', $group_set: {} } }))).toMatch(/\$group_type/);
    expect(reason(json({ ...base, event: '$group_identify', properties: { $group_type: 'company', $group_set: {} } }))).toMatch(
      /\$group_key/,
    );
  });

  it('maps CSV columns, parses JSON object columns and copies renamed columns into properties', () => {
    const csv = createRowMapper(parseMapping(['event=action,distinct_id=user', 'timestamp=at,$current_url=url']), 'iso', true);
    const result = csv({
      action: '$pageview',
      user: 'u1',
      at: '2024-01-01T00:00:00Z',
      url: 'https://a',
      plan: 'pro',
      empty: '',
      $set: '{"x":1}',
    });
    expect(result).toEqual({
      ok: true,
      value: {
        event: '$pageview',
        distinctId: 'u1',
        timestamp: Date.UTC(2024, 0, 1),
        properties: { plan: 'pro', $set: { x: 1 }, $current_url: 'https://a' },
      },
    });
    expect(reason(csv({ action: 'x', user: 'u', at: '2024-01-01', $set: 'nope' }))).toMatch(/\$set must hold a JSON object/);
  });

  it('parses a column mapped onto $set, $set_once, $group_set or $groups as a JSON object', () => {
    const mapping = parseMapping(['$set=traits,$set_once=first,$groups=orgs', '$group_set=group']);
    const csv = createRowMapper(mapping, 'iso', true);
    const row = {
      event: '$identify',
      distinct_id: 'u1',
      timestamp: '2024-01-01T00:00:00Z',
      traits: '{"email":"a@b.test"}',
      first: '{"source":"ad"}',
      orgs: '{"company":"c1"}',
      group: '',
    };
    expect(csv(row)).toEqual({
      ok: true,
      value: {
        event: '$identify',
        distinctId: 'u1',
        timestamp: Date.UTC(2024, 0, 1),
        properties: { $set: { email: 'a@b.test' }, $set_once: { source: 'ad' }, $groups: { company: 'c1' } },
      },
    });
    expect(reason(csv({ ...row, traits: 'email=a@b.test' }))).toMatch(
      /column traits \(mapped to \$set\) must hold a JSON object; got "email=a@b.test"/,
    );
    expect(reason(csv({ ...row, traits: '[1]' }))).toMatch(/mapped to \$set/);
    // JSON input: an object is taken as is, a string holding one is parsed.
    const json = createRowMapper(mapping, 'iso', false);
    expect(json({ ...row, traits: { plan: 'pro' }, first: undefined, orgs: undefined, group: undefined })).toMatchObject({
      ok: true,
      value: { properties: { $set: { plan: 'pro' } } },
    });
    expect(json({ ...row, first: undefined, orgs: undefined, group: undefined })).toMatchObject({
      ok: true,
      value: { properties: { $set: { email: 'a@b.test' } } },
    });
  });
});

describe('row uuids', () => {
  it('are valid UUIDs, stable per (source, row), different across sources, and decode back to the row', () => {
    const a = createRowUuids('a'.repeat(64));
    const b = createRowUuids('b'.repeat(64));
    expect(isUuid(a.uuidOf(0))).toBe(true);
    expect(a.uuidOf(12345)).toBe(createRowUuids('a'.repeat(64)).uuidOf(12345));
    expect(a.uuidOf(7)).not.toBe(b.uuidOf(7));
    expect(a.uuidOf(7)[14]).toBe('8');
    expect(a.rowOf(a.uuidOf(987654))).toBe(987654);
    expect(a.rowOf(b.uuidOf(1))).toBeUndefined();
  });
});

describe('nesting', () => {
  it('takes a row nested 100 levels deep and refuses one level more', () => {
    const mapRow = createRowMapper(DEFAULT_MAPPING, 'iso', false);
    const nest = (levels: number): unknown => (levels === 0 ? 1 : { a: nest(levels - 1) });
    // The row and its properties are two levels.
    const row = (levels: number) => ({ event: 'e', distinct_id: 'u', timestamp: '2024-01-01T00:00:00Z', properties: nest(levels - 1) });
    expect(mapRow(row(100)).ok).toBe(true);
    expect(mapRow(row(101))).toEqual({ ok: false, reason: expect.stringMatching(/nested more than 100 levels deep/) });
  });
});

describe('__proto__', () => {
  it('a field named __proto__ is a property like any other, in JSON and CSV rows', () => {
    const json = createRowMapper(DEFAULT_MAPPING, 'iso', false);
    const flat = json(JSON.parse('{"event":"e","distinct_id":"u","timestamp":"2024-01-01T00:00:00Z","__proto__":{"x":1}}'));
    const nested = json(
      JSON.parse('{"event":"e","distinct_id":"u","timestamp":"2024-01-01T00:00:00Z","properties":{"a":1},"__proto__":"top"}'),
    );
    const csv = createRowMapper(DEFAULT_MAPPING, 'iso', true);
    const seen: unknown[] = [];
    const reader = createCsvReader({ record: (_, value) => seen.push(value), invalid: () => {} });
    reader.write('event,distinct_id,timestamp,__proto__\ne,u,2024-01-01T00:00:00Z,cell\n');
    const fromCsv = csv(seen[0]);
    const own = (result: ReturnType<typeof json>) =>
      result.ok ? Object.getOwnPropertyDescriptor(result.value.properties, '__proto__')?.value : result.reason;
    expect(own(flat)).toEqual({ x: 1 });
    expect(own(nested)).toBe('top');
    expect(own(fromCsv)).toBe('cell');
  });
});
