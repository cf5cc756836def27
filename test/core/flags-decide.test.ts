import { describe, expect, it } from 'vitest';
import { featureProperties, mergeDecide, parseDecideResponse, takesGzip, parsePayload } from '../../src/core/flags/decide';
import { flagsBody } from '../../src/core/flags/flags-request';
import { createLru } from '../../src/core/lru';
import { stableJson } from '../../src/core/stable-json';

describe('decide', () => {
  it('builds the request body with the override objects present even when empty', () => {
    expect(JSON.parse(flagsBody('phc', 'u1'))).toEqual({
      token: 'phc',
      distinct_id: 'u1',
      groups: {},
      person_properties: {},
      group_properties: {},
      geoip_disable: false,
    });
    expect(
      JSON.parse(
        flagsBody(
          'phc',
          'u1',
          { groups: { org: 'o1' }, personProperties: { plan: 'pro' }, groupProperties: { org: { size: 3 } } },
          { flagKeys: ['beta'] },
        ),
      ),
    ).toEqual({
      token: 'phc',
      distinct_id: 'u1',
      groups: { org: 'o1' },
      person_properties: { plan: 'pro' },
      group_properties: { org: { size: 3 } },
      geoip_disable: false,
      flag_keys_to_evaluate: ['beta'],
    });
  });

  it('parses flags (false kept), payloads, errors, quota and compression; refuses non-JSON', () => {
    const result = parseDecideResponse(
      JSON.stringify({
        featureFlags: { on: true, off: false, variant: 'test', junk: 3 },
        featureFlagPayloads: { variant: '{"color":"red"}' },
        errorsWhileComputingFlags: true,
        quotaLimited: ['feature_flags'],
        supportedCompression: ['gzip', 'lz64'],
      }),
    );
    expect(result.flags).toEqual({ on: true, off: false, variant: 'test' });
    expect(result.payloads).toEqual({ variant: '{"color":"red"}' });
    expect(result.partial_).toBe(true);
    expect(result.quotaLimited_).toBe(true);
    expect(takesGzip(result.remoteConfig_.supportedCompression)).toBe(true);
    expect(takesGzip(parseDecideResponse('{"supportedCompression":["lz64"]}').remoteConfig_.supportedCompression)).toBe(false);
    expect(takesGzip(['gzip-js'])).toBe(true);
    expect(takesGzip('gzip')).toBe(false);
    expect(() => parseDecideResponse('<html>')).toThrow(/not a JSON object/);
  });

  it('merges on errorsWhileComputingFlags, keeps old flags when quota limited, replaces otherwise', () => {
    const previous = { flags: { a: true, b: 'x' }, payloads: { b: '1' } };
    const partial = parseDecideResponse('{"featureFlags":{"a":false},"errorsWhileComputingFlags":true}');
    expect(mergeDecide(previous, partial)).toEqual({ flags: { a: false, b: 'x' }, payloads: { b: '1' } });
    const limited = parseDecideResponse('{"featureFlags":{},"quotaLimited":["feature_flags"]}');
    expect(mergeDecide(previous, limited)).toBe(previous);
    const full = parseDecideResponse('{"featureFlags":{"c":true}}');
    expect(mergeDecide(previous, full)).toEqual({ flags: { c: true }, payloads: {} });
  });

  it('$feature/<key> for every flag, false included, and $active_feature_flags', () => {
    expect(featureProperties({ a: true, b: false, c: 'v1' })).toEqual({
      '$feature/a': true,
      '$feature/b': false,
      '$feature/c': 'v1',
      $active_feature_flags: ['a', 'c'],
    });
  });

  it('payloads are JSON-parsed when they are JSON strings', () => {
    expect(parsePayload('{"a":1}')).toEqual({ a: 1 });
    expect(parsePayload('plain text')).toBe('plain text');
    expect(parsePayload(5)).toBe(5);
  });
});

describe('lru and stable JSON', () => {
  it('evicts the least recently used key', () => {
    const lru = createLru<string, number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    lru.get('a');
    lru.set('c', 3);
    expect([lru.has('a'), lru.has('b'), lru.has('c'), lru.size]).toEqual([true, false, true, 2]);
  });

  it('sorts keys at every depth', () => {
    expect(stableJson({ b: 1, a: { d: [1, { y: 1, x: 2 }], c: undefined } })).toBe('{"a":{"d":[1,{"x":2,"y":1}]},"b":1}');
  });
});
