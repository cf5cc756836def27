// The flag engine's work under hostile definitions, counted rather than timed: every flag and
// cohort is decided once per evaluation (a diamond of cohorts, thousands of flags on one missing
// flag), recursion is bounded, and nothing that goes wrong inside escapes as an exception.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  createFlagHasher,
  evaluateAllFlags,
  evaluateFlag,
  parseFlagDefinitions,
  type EngineOptions,
  type EvaluationContext,
  type FlagDefinitions,
} from '../../src/core/flag-engine';

const sha1 = (text: string) => createHash('sha1').update(text, 'utf8').digest('hex');
const SDK: EngineOptions = { hash: createFlagHasher(sha1), knowsAllProperties: false };
const context = (personProperties: Record<string, unknown> = {}): EvaluationContext => ({
  distinctId: 'u',
  personProperties,
  groups: {},
  groupProperties: {},
});
const dependsOn = (key: string, on: string) => ({
  key,
  active: true,
  filters: { groups: [{ properties: [{ key: on, type: 'flag', value: true, operator: 'flag_evaluates_to' }], rollout_percentage: 100 }] },
});

/** Person properties that count how often the engine looks a property up. */
function countingProperties(values: Record<string, unknown>): { properties: Record<string, unknown>; reads: () => number } {
  let reads = 0;
  const properties = new Proxy(values, {
    getOwnPropertyDescriptor(target, key) {
      reads++;
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
  });
  return { properties, reads: () => reads };
}

describe('each flag and cohort is decided once per evaluation', () => {
  it('cohorts shaped as a diamond (cohort i = OR(i+1, i+1), 20 levels) read the leaf property once, not 2^20 times', () => {
    const cohorts: Record<string, unknown> = { '20': { type: 'AND', values: [{ key: 'plan', value: 'pro', type: 'person' }] } };
    for (let i = 0; i < 20; i++) {
      const next = { key: 'id', value: i + 1, type: 'cohort' };
      cohorts[String(i)] = { type: 'OR', values: [next, next] };
    }
    const definitions = parseFlagDefinitions(
      { cohorts, flags: [{ key: 'deep', active: true, filters: { groups: [{ properties: [{ key: 'id', value: 0, type: 'cohort' }] }] } }] },
      { lenient: true },
    );
    for (const [plan, expected] of [
      ['pro', true],
      ['free', false],
    ] as const) {
      const { properties, reads } = countingProperties({ plan });
      expect(evaluateFlag(definitions.flags[0]!, definitions, context(properties), SDK)).toMatchObject({ decided: true, value: expected });
      expect(reads()).toBeLessThanOrEqual(2);
    }
  });

  it('2,000 flags on one missing flag look the flag list through a bounded number of times, not once per flag', () => {
    const parsed = parseFlagDefinitions(
      { flags: Array.from({ length: 2_000 }, (_, i) => dependsOn(`f-${i}`, 'missing')) },
      { lenient: true },
    );
    let reads = 0;
    const flags = new Proxy(parsed.flags, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const definitions: FlagDefinitions = { ...parsed, flags };
    const results = evaluateAllFlags(definitions, context(), SDK);
    expect(results).toHaveLength(2_000);
    expect(results.every(({ outcome }) => !outcome.decided && /"missing".*not in the definitions/.test(outcome.why))).toBe(true);
    expect(reads).toBeLessThanOrEqual(3 * 2_000);
  });

  it('a flag other flags depend on is decided once for getAllFlags, whichever is evaluated first', () => {
    let hashes = 0;
    const counting: EngineOptions = { ...SDK, hash: (...args) => (hashes++, SDK.hash(...args)) };
    const base = { key: 'base', active: true, filters: { groups: [{ properties: [], rollout_percentage: 100 }] } };
    const definitions = parseFlagDefinitions(
      { flags: [base, ...Array.from({ length: 50 }, (_, i) => dependsOn(`d-${i}`, 'base'))] },
      { lenient: true },
    );
    const results = evaluateAllFlags(definitions, context(), counting);
    expect(results.every(({ outcome }) => outcome.decided && outcome.value === true)).toBe(true);
    // One rollout hash per flag: evaluating `base` first does not make its 50 dependants hash it again.
    expect(hashes).toBe(51);
  });
});

describe('nothing escapes', () => {
  it('a dependency chain 5,000 flags deep: every flag answered, none thrown, the deep end decided', () => {
    const flags = Array.from({ length: 5_000 }, (_, i) =>
      i === 4_999 ? { key: 'c-4999', active: true, filters: { groups: [{ properties: [] }] } } : dependsOn(`c-${i}`, `c-${i + 1}`),
    );
    const definitions = parseFlagDefinitions({ flags }, { lenient: true });
    const outcome = evaluateFlag(definitions.flags[0]!, definitions, context(), SDK);
    expect(outcome).toMatchObject({ decided: false, why: expect.stringMatching(/more than 100 levels deep/) });
    const all = evaluateAllFlags(definitions, context(), SDK);
    expect(all).toHaveLength(5_000);
    expect(all.at(-1)!.outcome).toMatchObject({ decided: true, value: true });
  });

  it('definitions shaped in a way parsing never produces are inconclusive, not a thrown TypeError', () => {
    const broken = {
      flags: [
        {
          key: 'odd',
          name: 'odd',
          id: 1,
          version: 1,
          active: true,
          deleted: false,
          ensure_experience_continuity: false,
          bucketing_identifier: 'distinct_id',
          filters: {
            groups: [{ properties: [{ key: 'id', operator: 'in', value: 7, type: 'cohort' }], rollout_percentage: 100, variant: null }],
            multivariate: null,
            payloads: {},
            aggregation_group_type_index: null,
          },
        },
      ],
      group_type_mapping: {},
      cohorts: { '7': { type: 'AND', values: null } },
    } as unknown as FlagDefinitions;
    const outcome = evaluateFlag(broken.flags[0]!, broken, context(), SDK);
    expect(outcome).toMatchObject({ decided: false, why: expect.stringMatching(/^could not be evaluated: TypeError/) });
  });
});
