// The shared flag engine (src/core/flag-engine) as an SDK uses it: PostHog's consistency vectors and
// the person property operators. Whole flags are in flag-engine-flags.test.ts; the dev server's
// server-side reading is in test/devserver/dev-flags.test.ts.
import { describe, expect, it } from 'vitest';
import { createFlagHasher, matchProperty, type PropertyFilter } from '../../src/core/flag-engine';
import { MULTIVARIATE_55, MULTIVARIATE_VARIANTS, SIMPLE_45 } from './flag-engine-vectors';
import { outcome, sha1, valueOf } from './flag-engine-support';

describe('PostHog consistency vectors', () => {
  it('hashes exactly as PostHog: sha1 of "<key>.<id><salt>", 15 hex digits over 0xFFFFFFFFFFFFFFF', () => {
    const hash = createFlagHasher(sha1);
    // The same rounded scale as every PostHog SDK (the literal cannot be exact as a double).
    // eslint-disable-next-line no-loss-of-precision
    const scale = 0xfffffffffffffff;
    const digest = sha1('simple-flag.distinct_id_0');
    expect(hash('simple-flag', 'distinct_id_0')).toBe(parseInt(digest.slice(0, 15), 16) / scale);
    expect(hash('f', 'u', 'variant')).toBe(parseInt(sha1('f.uvariant').slice(0, 15), 16) / scale);
  });

  it('gives the published result for all 1000 ids of the 45% flag', () => {
    const flags = [{ key: 'simple-flag', active: true, filters: { groups: [{ properties: [], rollout_percentage: 45 }] } }];
    const got = Array.from({ length: 1000 }, (_, i) =>
      valueOf(outcome(flags, 'simple-flag', { distinctId: `distinct_id_${i}` })) ? '1' : '0',
    ).join('');
    expect(got).toBe(SIMPLE_45);
  });

  it('gives the published variant for all 1000 ids of the multivariate flag', () => {
    const flags = [
      {
        key: 'multivariate-flag',
        active: true,
        filters: {
          groups: [{ properties: [], rollout_percentage: 55 }],
          multivariate: {
            variants: [
              { key: 'first-variant', rollout_percentage: 50 },
              { key: 'second-variant', rollout_percentage: 20 },
              { key: 'third-variant', rollout_percentage: 20 },
              { key: 'fourth-variant', rollout_percentage: 5 },
              { key: 'fifth-variant', rollout_percentage: 5 },
            ],
          },
        },
      },
    ];
    const got = Array.from({ length: 1000 }, (_, i) => {
      const value = valueOf(outcome(flags, 'multivariate-flag', { distinctId: `distinct_id_${i}` }));
      return value === false ? '-' : String(MULTIVARIATE_VARIANTS.indexOf(value as string) + 1);
    }).join('');
    expect(got).toBe(MULTIVARIATE_55);
  });
});

describe('person property operators (an SDK with the properties it was given)', () => {
  const filter = (operator: string, value?: unknown): PropertyFilter => ({
    key: 'p',
    operator,
    type: 'person',
    ...(value === undefined ? {} : { value }),
  });
  const NOW = Date.parse('2026-11-25T12:00:00Z');
  it.each([
    ['exact', 'Pro', { p: 'pro' }, true],
    ['exact', ['free', 'pro'], { p: 'PRO' }, true],
    ['exact', 'pro', { p: 'free' }, false],
    ['exact', 5, { p: '5' }, true],
    ['is_not', 'pro', { p: 'free' }, true],
    ['is_not', ['pro', 'team'], { p: 'Team' }, false],
    ['icontains', 'ACME', { p: 'ada@acme.com' }, true],
    ['icontains', 'acme', { p: 'ada@other.com' }, false],
    ['not_icontains', 'acme', { p: 'ada@other.com' }, true],
    ['not_icontains', 'ACME', { p: 'ada@acme.com' }, false],
    ['regex', '^ada@.+\\.com$', { p: 'ada@acme.com' }, true],
    ['regex', '^bob', { p: 'ada@acme.com' }, false],
    ['regex', '(unclosed', { p: 'x' }, false],
    ['not_regex', '^bob', { p: 'ada@acme.com' }, true],
    ['not_regex', '(unclosed', { p: 'x' }, false],
    ['gt', 10, { p: 11 }, true],
    ['gt', '10', { p: '9' }, false],
    ['gt', 'apple', { p: 'banana' }, true],
    ['gte', 10, { p: 10 }, true],
    ['lt', 10, { p: '2' }, true],
    ['lt', 10, { p: 20 }, false],
    ['lte', 10, { p: 10 }, true],
    ['gt', 1, { p: null }, false],
    ['is_set', undefined, { p: null }, true],
    ['is_not_set', undefined, { p: 1 }, false],
    ['is_date_before', '2024-06-01', { p: '2024-05-01T00:00:00Z' }, true],
    ['is_date_before', '2024-06-01', { p: new Date('2024-07-01') }, false],
    ['is_date_after', '2024-06-01', { p: '2024-06-02' }, true],
    ['is_date_after', '-7d', { p: '2026-11-20T00:00:00Z' }, true],
    ['is_date_after', '-7d', { p: '2026-11-17T00:00:00Z' }, false],
    ['is_date_before', '-1y', { p: '2025-11-24T00:00:00Z' }, true],
    ['is_date_before', '-2h', { p: '2026-11-25T10:30:00Z' }, false],
    ['is_date_after', '-1m', { p: '2026-10-26T00:00:00Z' }, true],
    ['is_date_after', '-2w', { p: '2026-11-10T00:00:00Z' }, false],
    ['starts_with', 'ADA', { p: 'ada@acme.com' }, true],
    ['ends_with', '.org', { p: 'ada@acme.com' }, false],
    ['semver_eq', '1.2.0', { p: 'v1.2' }, true],
    ['semver_neq', '1.2.0', { p: '1.2.1' }, true],
    ['semver_gt', '1.2.3', { p: '1.10.0' }, true],
    ['semver_gte', '1.2.3', { p: '1.2.3-beta.1' }, true],
    ['semver_lt', '2.0.0', { p: '1.99.99' }, true],
    ['semver_lte', '1.2.3', { p: '1.2.4' }, false],
    ['semver_tilde', '1.2.3', { p: '1.2.9' }, true],
    ['semver_tilde', '1.2.3', { p: '1.3.0' }, false],
    ['semver_caret', '1.2.3', { p: '1.9.0' }, true],
    ['semver_caret', '0.2.3', { p: '0.3.0' }, false],
    ['semver_wildcard', '1.2.*', { p: '1.2.7' }, true],
    ['semver_wildcard', '1.*', { p: '2.0.0' }, false],
  ] as const)('%s %j on %j is %s', (operator, value, properties, expected) => {
    expect(matchProperty(filter(operator, value), properties, { knowsAllProperties: false, now: NOW })).toBe(expected);
  });

  it.each([
    ['a property that was not given', filter('exact', 'pro'), {}],
    ['is_not_set on a property that was not given', filter('is_not_set'), {}],
    ['a date filter that is not a date', filter('is_date_before', 'next tuesday'), { p: '2024-01-01' }],
    ['a property value that is not a date', filter('is_date_after', '2024-01-01'), { p: 'soon' }],
    ['an operator this version does not know', filter('is_cleverer_than', '1.2.0'), { p: '1.3.0' }],
    ['a property value that is not a version', filter('semver_gt', '1.2.0'), { p: 'latest' }],
  ])('is inconclusive for %s', (_, which, properties) => {
    expect(() => matchProperty(which, properties, { knowsAllProperties: false, now: NOW })).toThrow(
      /not given|not a date|not known|not a version/,
    );
  });
});
