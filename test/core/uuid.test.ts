import { describe, expect, it } from 'vitest';
import { isUuid, uuidv7 } from '../../src/core/uuid';

describe('uuidv7', () => {
  it('has the v7 version and RFC variant bits and encodes the time', () => {
    const now = Date.UTC(2026, 10, 22, 12, 0, 0);
    const id = uuidv7(now);
    expect(isUuid(id)).toBe(true);
    expect(id[14]).toBe('7');
    expect(['8', '9', 'a', 'b']).toContain(id[19]);
    expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(now);
  });

  it('is unique and ordered across 100,000 ids made in the same few milliseconds', () => {
    const ids: string[] = [];
    for (let i = 0; i < 100_000; i++) ids.push(uuidv7());
    expect(new Set(ids).size).toBe(ids.length);
    const sorted = [...ids].sort();
    expect(sorted).toEqual(ids);
  });

  it('stays ordered when the clock goes backwards', () => {
    const a = uuidv7(Date.UTC(2030, 0, 1));
    const b = uuidv7(Date.UTC(2029, 0, 1));
    expect(b > a).toBe(true);
  });

  it('isUuid accepts UUIDs and refuses the rest', () => {
    expect(isUuid('0190a0a0-0000-7000-8000-000000000000')).toBe(true);
    expect(isUuid('not-a-uuid')).toBe(false);
    expect(isUuid(42)).toBe(false);
  });
});

describe('uuidv7 counter', () => {
  it('ids made in one millisecond differ only in the counter and the random tail', () => {
    const now = Date.UTC(2031, 0, 1);
    const a = uuidv7(now);
    const b = uuidv7(now);
    expect(a.slice(0, 14)).toBe(b.slice(0, 14)); // same time and version
    expect(b > a).toBe(true);
    const counter = (id: string) => parseInt(id.slice(15, 18) + id.slice(19, 23) + id.slice(24, 28), 16);
    // 12 bits of rand_a, then rand_b's 2 variant bits (10), then 30 counter bits: drop the variant.
    const value = (id: string) => {
      const bits = counter(id).toString(2).padStart(44, '0');
      return parseInt(bits.slice(0, 12) + bits.slice(14), 2);
    };
    expect(value(b) - value(a)).toBe(1);
  });
});
