import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCollector, type Collector } from '../../src/devserver';
import {
  createFlagsDecide,
  evaluateFlags,
  FlagDefinitionsError,
  flagHash,
  matchProperty,
  parseFlagDefinitions,
  type FlagDefinition,
  type PropertyFilter,
} from '../../src/devserver/flags';
import { KEY, postJson } from './helpers';

/**
 * `simple-flag` at 45% over distinct_id_0 … distinct_id_59. Computed with node:crypto from PostHog's
 * formula; the first ten are the ones PostHog publishes (false, true, true, false, true, false, false,
 * true, false, true), checked separately below so a wrong derivation cannot pass silently.
 */
const SIMPLE_FLAG_45 = [
  false,
  true,
  true,
  false,
  true,
  false,
  false,
  true,
  false,
  true,
  false,
  true,
  true,
  false,
  true,
  false,
  false,
  false,
  true,
  true,
  false,
  true,
  false,
  false,
  true,
  false,
  true,
  true,
  false,
  false,
  false,
  true,
  true,
  true,
  true,
  false,
  false,
  false,
  false,
  false,
  false,
  true,
  true,
  false,
  true,
  true,
  false,
  false,
  false,
  true,
  true,
  false,
  false,
  false,
  false,
  true,
  false,
  true,
  false,
  true,
];
const PUBLISHED_FIRST_TEN = [false, true, true, false, true, false, false, true, false, true];

/**
 * posthog-python's `test_multivariate_flag_consistency` (55% rollout, variants 50/20/20/5/5), its
 * first 20 published values.
 */
const PUBLISHED_MULTIVARIATE_FIRST_20 = [
  'second-variant',
  'second-variant',
  'first-variant',
  false,
  false,
  'second-variant',
  'first-variant',
  false,
  false,
  false,
  'first-variant',
  'third-variant',
  false,
  'first-variant',
  'second-variant',
  'first-variant',
  false,
  false,
  'fourth-variant',
  'first-variant',
];

const simpleFlag = { key: 'simple-flag', active: true, filters: { groups: [{ properties: [], rollout_percentage: 45 }] } };
const multivariateFlag = {
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
};

const context = (distinctId: string, personProperties: Record<string, unknown> = {}) => ({
  distinctId,
  groups: {},
  personProperties,
  groupProperties: {},
});

describe('PostHog consistency', () => {
  it('matches the published simple-flag vector at 45%', () => {
    expect(SIMPLE_FLAG_45.slice(0, 10)).toEqual(PUBLISHED_FIRST_TEN);
    const definitions = parseFlagDefinitions([simpleFlag]);
    const got = SIMPLE_FLAG_45.map((_, i) => evaluateFlags(definitions, context(`distinct_id_${i}`)).featureFlags['simple-flag']);
    expect(got).toEqual(SIMPLE_FLAG_45);
  });

  it('matches the published multivariate vector', () => {
    const definitions = parseFlagDefinitions([multivariateFlag]);
    const got = PUBLISHED_MULTIVARIATE_FIRST_20.map(
      (_, i) => evaluateFlags(definitions, context(`distinct_id_${i}`)).featureFlags['multivariate-flag'],
    );
    expect(got).toEqual(PUBLISHED_MULTIVARIATE_FIRST_20);
  });

  it('hashes into [0, 1] with the variant salt changing the value', () => {
    const rollout = flagHash('simple-flag', 'distinct_id_0');
    const variant = flagHash('simple-flag', 'distinct_id_0', 'variant');
    expect(rollout).toBeGreaterThanOrEqual(0);
    expect(rollout).toBeLessThanOrEqual(1);
    expect(variant).not.toBe(rollout);
  });
});

describe('property conditions', () => {
  const filter = (operator: PropertyFilter['operator'], value?: unknown): PropertyFilter => ({
    key: 'p',
    operator,
    type: 'person',
    ...(value === undefined ? {} : { value }),
  });
  it.each([
    ['exact', 'Pro', { p: 'pro' }, true],
    ['exact', ['free', 'pro'], { p: 'pro' }, true],
    ['exact', 'pro', { p: 'free' }, false],
    ['exact', 'pro', {}, false],
    ['is_not', 'pro', { p: 'free' }, true],
    ['is_not', 'pro', { p: 'pro' }, false],
    ['is_not', 'pro', {}, true],
    ['icontains', 'ACME', { p: 'ada@acme.com' }, true],
    ['icontains', 'acme', { p: 'ada@other.com' }, false],
    ['not_icontains', 'acme', { p: 'ada@other.com' }, true],
    ['regex', '^ada@.+\\.com$', { p: 'ada@acme.com' }, true],
    ['regex', '^bob', { p: 'ada@acme.com' }, false],
    ['not_regex', '^bob', { p: 'ada@acme.com' }, true],
    ['gt', 10, { p: 11 }, true],
    ['gt', 10, { p: '9' }, false],
    ['gt', '10', { p: 9 }, false],
    ['gte', 10, { p: 10 }, true],
    ['lt', 10, { p: 2 }, true],
    ['lt', 10, { p: 20 }, false],
    ['lte', 10, { p: 10 }, true],
    ['is_set', undefined, { p: null }, true],
    ['is_set', undefined, {}, false],
    ['is_not_set', undefined, {}, true],
    ['is_date_before', '2024-06-01', { p: '2024-05-01T00:00:00Z' }, true],
    ['is_date_after', '2024-06-01', { p: '2024-05-01T00:00:00Z' }, false],
  ] as const)('%s %j on %j is %s', (operator, value, properties, expected) => {
    expect(matchProperty(filter(operator, value), properties)).toBe(expected);
  });

  it('needs every property of a condition and then the rollout', () => {
    const definitions = parseFlagDefinitions([
      {
        key: 'beta',
        properties: [
          { key: 'email', operator: 'icontains', value: '@acme.com' },
          { key: 'plan', value: 'pro' },
        ],
      },
    ]);
    const value = (props: Record<string, unknown>) => evaluateFlags(definitions, context('u', props)).featureFlags['beta'];
    expect(value({ email: 'ada@acme.com', plan: 'pro' })).toBe(true);
    expect(value({ email: 'ada@acme.com', plan: 'free' })).toBe(false);
    expect(value({ plan: 'pro' })).toBe(false);
  });

  it('takes the first matching condition, variant overrides first', () => {
    const definitions = parseFlagDefinitions([
      {
        key: 'checkout',
        conditions: [
          { properties: [], rollout_percentage: 100 },
          { properties: [{ key: 'email', value: 'vip@acme.com' }], variant: 'test' },
        ],
        variants: [
          { key: 'control', rollout_percentage: 50 },
          { key: 'test', rollout_percentage: 50 },
        ],
      },
    ]);
    expect(evaluateFlags(definitions, context('someone', { email: 'vip@acme.com' })).featureFlags['checkout']).toBe('test');
    // Without the override everyone gets the hashed variant; over many ids both show up.
    const seen = new Set(Array.from({ length: 50 }, (_, i) => evaluateFlags(definitions, context(`id-${i}`)).featureFlags['checkout']));
    expect(seen).toEqual(new Set(['control', 'test']));
  });
});

describe('definitions', () => {
  it('answers false for inactive flags, leaves deleted ones out, and carries payloads as JSON text', () => {
    const definitions = parseFlagDefinitions({
      flags: [
        { key: 'on', payloads: { true: { color: 'red' } } },
        { key: 'text-payload', payloads: { true: '"hello"' } },
        { key: 'off', active: false, payloads: { true: '{"x":1}' } },
        { key: 'gone', deleted: true },
        {
          ...multivariateFlag,
          filters: {
            ...multivariateFlag.filters,
            groups: [{ rollout_percentage: 100 }],
            payloads: {
              'first-variant': '{"v":1}',
              'second-variant': '{"v":2}',
              'third-variant': [3],
              'fourth-variant': 4,
              'fifth-variant': 5,
            },
          },
        },
      ],
    });
    // distinct_id_0 gets second-variant in PostHog's published vector.
    const result = evaluateFlags(definitions, context('distinct_id_0'));
    expect(result.featureFlags).toEqual({ on: true, 'text-payload': true, off: false, 'multivariate-flag': 'second-variant' });
    expect(result.featureFlagPayloads).toEqual({ on: '{"color":"red"}', 'text-payload': '"hello"', 'multivariate-flag': '{"v":2}' });
    expect(result.errors).toEqual([]);
  });

  it('evaluates group flags per group key, off without the group', () => {
    const definitions = parseFlagDefinitions({
      group_type_mapping: { '0': 'company' },
      flags: [
        {
          key: 'team-beta',
          filters: {
            aggregation_group_type_index: 0,
            groups: [
              { properties: [{ key: 'seats', operator: 'gte', value: 10, type: 'group', group_type_index: 0 }], rollout_percentage: 100 },
            ],
          },
        },
        { key: 'rolled', group_type: 'company', rollout_percentage: 50 },
      ],
    });
    const evaluate = (groups: Record<string, string>, groupProperties: Record<string, Record<string, unknown>>) =>
      evaluateFlags(definitions, { distinctId: 'u', groups, personProperties: {}, groupProperties }).featureFlags;
    expect(evaluate({}, {})['team-beta']).toBe(false);
    expect(evaluate({ company: 'acme' }, { company: { seats: 12 } })['team-beta']).toBe(true);
    expect(evaluate({ company: 'acme' }, { company: { seats: 3 } })['team-beta']).toBe(false);
    // The rollout hashes the group key: the same for every member of the group.
    const forAcme = flagHash('rolled', 'acme') <= 0.5;
    expect(evaluate({ company: 'acme' }, {})['rolled']).toBe(forAcme);
  });

  it('answers the other flags and reports the one that could not be evaluated', () => {
    const good = parseFlagDefinitions([{ key: 'fine' }]);
    const broken = { ...good.flags[0], key: 'broken', filters: { ...good.flags[0]?.filters, groups: null } } as unknown as FlagDefinition;
    const result = evaluateFlags({ ...good, flags: [...good.flags, broken] }, context('u'));
    expect(result.featureFlags).toEqual({ fine: true });
    expect(result.errors).toEqual([expect.stringMatching(/^broken: /)]);
  });

  it('reports every problem with its place in the file', () => {
    let error: unknown;
    try {
      parseFlagDefinitions([
        { key: 'a', rollout_percentage: 140 },
        { key: 'b', properties: [{ key: 'x', operator: 'contains', value: 1 }] },
        { key: 'c', variants: [{ key: 'one', rollout_percentage: 60 }] },
        { key: 'd', properties: [{ key: 'x', operator: 'regex', value: '(' }] },
        { key: 'a' },
        { nokey: true },
      ]);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(FlagDefinitionsError);
    const problems = (error as FlagDefinitionsError).problems.join('\n');
    expect(problems).toMatch(/flags\[0\] \(a\).*rollout_percentage must be a number from 0 to 100/);
    expect(problems).toMatch(/flags\[1\] \(b\).*operator "contains" is not one of/);
    expect(problems).toMatch(/flags\[2\] \(c\).*add up to 60, not 100/);
    expect(problems).toMatch(/flags\[3\] \(d\).*not a valid regular expression/);
    expect(problems).toMatch(/flags\[4\]: the key "a" is used twice/);
    expect(problems).toMatch(/flags\[5\]\.key must be a non-empty string/);
  });
});

describe('createFlagsDecide behind the collector', () => {
  let collector: Collector | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await collector?.close();
    collector = undefined;
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  const decide = async (body: Record<string, unknown>) => {
    const reply = await postJson(`${collector?.url}/decide/?v=3`, { api_key: KEY, ...body });
    expect(reply.status).toBe(200);
    return JSON.parse(reply.text) as Record<string, unknown>;
  };

  it('answers decide v3 with every flag, payloads as strings, and PostHog consistency', async () => {
    collector = await createCollector({
      decide: createFlagsDecide({
        definitions: [simpleFlag, { key: 'off', active: false }, { key: 'with-payload', payloads: { true: { banner: 'hi' } } }],
      }),
    });
    const answer = await decide({ distinct_id: 'distinct_id_1' });
    expect(answer).toMatchObject({
      featureFlags: { 'simple-flag': true, off: false, 'with-payload': true },
      featureFlagPayloads: { 'with-payload': '{"banner":"hi"}' },
      errorsWhileComputingFlags: false,
      supportedCompression: ['gzip', 'gzip-js'],
      config: { enable_collect_everything: false },
    });
    for (let i = 0; i < SIMPLE_FLAG_45.length; i++) {
      const flags = (await decide({ distinct_id: `distinct_id_${i}` })).featureFlags as Record<string, unknown>;
      expect(flags['simple-flag'], `distinct_id_${i}`).toBe(SIMPLE_FLAG_45[i]);
    }
  });

  it('lets person_properties, groups and group_properties in the request override stored ones', async () => {
    collector = await createCollector({
      decide: createFlagsDecide({
        definitions: {
          group_type_mapping: { '0': 'company' },
          flags: [
            { key: 'pro-only', properties: [{ key: 'plan', value: 'pro' }] },
            {
              key: 'big-company',
              group_type: 'company',
              properties: [{ key: 'seats', operator: 'gt', value: 100, type: 'group', group_type_index: 0 }],
            },
          ],
        },
        personProperties: (id) => (id === 'stored-pro' ? { plan: 'pro' } : undefined),
        groupProperties: (type, key) => (type === 'company' && key === 'big' ? { seats: 500 } : undefined),
      }),
    });
    expect((await decide({ distinct_id: 'stored-pro' })).featureFlags).toEqual({ 'pro-only': true, 'big-company': false });
    expect((await decide({ distinct_id: 'stored-pro', person_properties: { plan: 'free' } })).featureFlags).toMatchObject({
      'pro-only': false,
    });
    expect((await decide({ distinct_id: 'anon', person_properties: { plan: 'pro' } })).featureFlags).toMatchObject({ 'pro-only': true });
    expect((await decide({ distinct_id: 'anon', groups: { company: 'big' } })).featureFlags).toMatchObject({ 'big-company': true });
    expect(
      (await decide({ distinct_id: 'anon', groups: { company: 'big' }, group_properties: { company: { seats: 5 } } })).featureFlags,
    ).toMatchObject({ 'big-company': false });
  });

  it('re-reads the flags file when it changes, and keeps the last good definitions on a bad edit', async () => {
    dir = mkdtempSync(join(tmpdir(), 'hogtail-flags-'));
    const file = join(dir, 'flags.json');
    writeFileSync(file, JSON.stringify([{ key: 'beta', active: true }]));
    const errors: string[] = [];
    const flags = createFlagsDecide({ file, onError: (message) => errors.push(message) });
    collector = await createCollector({ decide: flags });

    expect((await decide({ distinct_id: 'u' })).featureFlags).toEqual({ beta: true });

    writeFileSync(
      file,
      JSON.stringify([
        { key: 'beta', active: false },
        { key: 'new-flag', rollout_percentage: 100 },
      ]),
    );
    expect((await decide({ distinct_id: 'u' })).featureFlags).toEqual({ beta: false, 'new-flag': true });

    writeFileSync(file, '[{"key": "beta", ');
    expect((await decide({ distinct_id: 'u' })).featureFlags).toEqual({ beta: false, 'new-flag': true });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/not valid JSON/);
    expect(flags.fileStatus()?.error).toMatch(/not valid JSON/);

    // Editors often save by renaming a new file over the old one.
    writeFileSync(`${file}.tmp`, JSON.stringify({ flags: [{ key: 'renamed', payloads: { true: '1' } }] }));
    renameSync(`${file}.tmp`, file);
    const answer = await decide({ distinct_id: 'u' });
    expect(answer.featureFlags).toEqual({ renamed: true });
    expect(answer.featureFlagPayloads).toEqual({ renamed: '1' });
    expect(flags.fileStatus()?.error).toBeUndefined();
  });

  it('refuses to start on an unusable file', () => {
    const made = mkdtempSync(join(tmpdir(), 'hogtail-flags-'));
    dir = made;
    const file = join(made, 'flags.json');
    writeFileSync(file, JSON.stringify([{ key: 'x', rollout_percentage: 'half' }]));
    expect(() => createFlagsDecide({ file })).toThrow(FlagDefinitionsError);
    expect(() => createFlagsDecide({ file: join(made, 'missing.json') })).toThrow(/ENOENT/);
  });
});
