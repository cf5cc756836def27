// Whole flags in the shared flag engine (src/core/flag-engine) as an SDK uses it: payloads,
// variants, groups, dependencies and what makes a flag inconclusive.
import { describe, expect, it } from 'vitest';
import { evaluateAllFlags, parseFlagDefinitions } from '../../src/core/flag-engine';
import { outcome, SDK, valueOf } from './flag-engine-support';

describe('flags', () => {
  const person = (properties: unknown[], rollout: number | null = 100) => ({ groups: [{ properties, rollout_percentage: rollout }] });

  it('returns the payload of the value it chose, variant overrides first', () => {
    const flags = [
      {
        key: 'checkout',
        filters: {
          groups: [
            { properties: [], rollout_percentage: 100 },
            { properties: [{ key: 'email', value: 'vip@acme.com' }], variant: 'test' },
          ],
          multivariate: {
            variants: [
              { key: 'control', rollout_percentage: 100 },
              { key: 'test', rollout_percentage: 0 },
            ],
          },
          payloads: { test: '{"price":9}', control: '{"price":10}' },
        },
      },
    ];
    expect(outcome(flags, 'checkout', { person: { email: 'vip@acme.com' } })).toMatchObject({
      value: 'test',
      payload: '{"price":9}',
      reason: { code: 'condition_match', condition_index: 1 },
    });
    expect(outcome(flags, 'checkout', { person: { email: 'x@acme.com' } })).toMatchObject({ value: 'control', payload: '{"price":10}' });
    // The override cannot be decided without the email, and would win if it matched.
    expect(outcome(flags, 'checkout')).toEqual({ decided: false, why: expect.stringMatching(/email/) });
  });

  it('decides from a later condition when an earlier one is inconclusive, and not otherwise', () => {
    const flags = [
      {
        key: 'f',
        filters: {
          groups: [
            { properties: [{ key: 'plan', value: 'pro' }], rollout_percentage: 100 },
            { properties: [{ key: 'beta', value: true }], rollout_percentage: 100 },
          ],
        },
      },
    ];
    expect(valueOf(outcome(flags, 'f', { person: { beta: true } }))).toBe(true);
    expect(valueOf(outcome(flags, 'f', { person: { beta: false } }))).toBe('inconclusive');
    // One definite miss in a condition settles it even when another filter in it is unknown.
    const both = [
      {
        key: 'g',
        filters: person([
          { key: 'plan', value: 'pro' },
          { key: 'country', value: 'FR' },
        ]),
      },
    ];
    expect(valueOf(outcome(both, 'g', { person: { country: 'DE' } }))).toBe(false);
  });

  it('ends at a targeted condition that rolled the id out with early_exit, and targets groups per condition (mixed targeting)', () => {
    const early = (earlyExit: boolean) => [
      {
        key: 'e',
        filters: {
          early_exit: earlyExit,
          groups: [
            { properties: [{ key: 'plan', value: 'pro' }], rollout_percentage: 0 },
            { properties: [], rollout_percentage: 100 },
          ],
        },
      },
    ];
    expect(outcome(early(true), 'e', { person: { plan: 'pro' } })).toMatchObject({
      value: false,
      reason: { code: 'out_of_rollout_bound', condition_index: 0 },
    });
    expect(valueOf(outcome(early(false), 'e', { person: { plan: 'pro' } }))).toBe(true);
    expect(valueOf(outcome(early(true), 'e', { person: { plan: 'free' } }))).toBe(true);

    const mixed = {
      group_type_mapping: { '0': 'company' },
      flags: [
        {
          key: 'm',
          filters: {
            groups: [
              {
                properties: [{ key: 'size', operator: 'gt', value: 50, type: 'group', group_type_index: 0 }],
                rollout_percentage: 100,
                aggregation_group_type_index: 0,
              },
              { properties: [{ key: 'plan', value: 'pro' }], rollout_percentage: 100, aggregation_group_type_index: null },
            ],
          },
        },
      ],
    };
    expect(
      valueOf(outcome(mixed, 'm', { groups: { company: 'acme' }, groupProperties: { company: { size: 80 } }, person: { plan: 'free' } })),
    ).toBe(true);
    expect(
      valueOf(outcome(mixed, 'm', { groups: { company: 'acme' }, groupProperties: { company: { size: 8 } }, person: { plan: 'free' } })),
    ).toBe(false);
    // Without the group the group condition is skipped; without its properties it is undecided.
    expect(valueOf(outcome(mixed, 'm', { person: { plan: 'free' } }))).toBe(false);
    expect(valueOf(outcome(mixed, 'm', { groups: { company: 'acme' }, person: { plan: 'free' } }))).toBe('inconclusive');
    expect(valueOf(outcome(mixed, 'm', { groups: { company: 'acme' }, person: { plan: 'pro' } }))).toBe(true);
  });

  it('is off for inactive flags and inconclusive for experience continuity', () => {
    expect(outcome([{ key: 'off', active: false, filters: person([]) }], 'off')).toMatchObject({
      value: false,
      reason: { code: 'flag_disabled' },
    });
    expect(valueOf(outcome([{ key: 'sticky', ensure_experience_continuity: true, filters: person([]) }], 'sticky'))).toBe('inconclusive');
  });

  it('rolls group flags out per group key through group_type_mapping, off without the group', () => {
    const definitions = {
      group_type_mapping: { '0': 'company', '1': 'project' },
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
      ],
    };
    expect(outcome(definitions, 'team-beta')).toMatchObject({ value: false, reason: { code: 'no_group_type' } });
    expect(valueOf(outcome(definitions, 'team-beta', { groups: { company: 'acme' }, groupProperties: { company: { seats: 12 } } }))).toBe(
      true,
    );
    expect(valueOf(outcome(definitions, 'team-beta', { groups: { company: 'acme' }, groupProperties: { company: { seats: 2 } } }))).toBe(
      false,
    );
    expect(valueOf(outcome(definitions, 'team-beta', { groups: { company: 'acme' } }))).toBe('inconclusive');
    const unmapped = { ...definitions, group_type_mapping: {} };
    expect(valueOf(outcome(unmapped, 'team-beta', { groups: { company: 'acme' } }))).toBe('inconclusive');
  });

  it('matches cohorts sent with the definitions, nested and negated, and leaves static ones to the server', () => {
    const definitions = {
      cohorts: {
        '7': {
          type: 'OR',
          values: [
            {
              type: 'AND',
              values: [
                { key: 'plan', value: 'pro', type: 'person' },
                { key: 'email', operator: 'icontains', value: 'spam', type: 'person', negation: true },
              ],
            },
          ],
        },
        '8': {
          type: 'AND',
          values: [
            { key: 'id', type: 'cohort', value: 7 },
            { key: 'country', value: 'FR', type: 'person' },
          ],
        },
      },
      flags: [
        { key: 'in-7', filters: person([{ key: 'id', type: 'cohort', value: 7 }]) },
        { key: 'not-in-7', filters: person([{ key: 'id', type: 'cohort', operator: 'not_in', value: 7 }]) },
        { key: 'in-8', filters: person([{ key: 'id', type: 'cohort', value: 8 }]) },
        { key: 'static', filters: person([{ key: 'id', type: 'cohort', value: 99 }]) },
      ],
    };
    const pro = { plan: 'pro', email: 'ada@acme.com', country: 'FR' };
    expect(valueOf(outcome(definitions, 'in-7', { person: pro }))).toBe(true);
    expect(valueOf(outcome(definitions, 'not-in-7', { person: pro }))).toBe(false);
    expect(valueOf(outcome(definitions, 'in-7', { person: { ...pro, email: 'spam@x.io' } }))).toBe(false);
    expect(valueOf(outcome(definitions, 'in-8', { person: pro }))).toBe(true);
    expect(valueOf(outcome(definitions, 'in-8', { person: { ...pro, country: 'DE' } }))).toBe(false);
    expect(valueOf(outcome(definitions, 'in-7', { person: { plan: 'pro' } }))).toBe('inconclusive');
    expect(outcome(definitions, 'static', { person: pro })).toEqual({ decided: false, why: expect.stringMatching(/static cohort/) });
  });

  it('evaluates flags that depend on other flags, with cycles and missing flags inconclusive', () => {
    const definitions = {
      flags: [
        { key: 'base', filters: person([{ key: 'plan', value: 'pro' }]) },
        { key: 'exp', filters: { ...person([]), multivariate: { variants: [{ key: 'a', rollout_percentage: 100 }] } } },
        {
          key: 'needs-base',
          filters: person([{ key: 'base', type: 'flag', operator: 'flag_evaluates_to', value: true, dependency_chain: ['base'] }]),
        },
        { key: 'needs-base-off', filters: person([{ key: 'base', type: 'flag', value: false }]) },
        { key: 'needs-variant-a', filters: person([{ key: 'exp', type: 'flag', value: 'a' }]) },
        { key: 'loop-1', filters: person([{ key: 'loop-2', type: 'flag', value: true }]) },
        { key: 'loop-2', filters: person([{ key: 'loop-1', type: 'flag', value: true }]) },
        { key: 'needs-missing', filters: person([{ key: 'nowhere', type: 'flag', value: true }]) },
      ],
    };
    expect(valueOf(outcome(definitions, 'needs-base', { person: { plan: 'pro' } }))).toBe(true);
    expect(valueOf(outcome(definitions, 'needs-base', { person: { plan: 'free' } }))).toBe(false);
    expect(valueOf(outcome(definitions, 'needs-base-off', { person: { plan: 'free' } }))).toBe(true);
    expect(valueOf(outcome(definitions, 'needs-base'))).toBe('inconclusive');
    expect(valueOf(outcome(definitions, 'needs-variant-a'))).toBe(true);
    expect(outcome(definitions, 'loop-1')).toEqual({ decided: false, why: expect.stringMatching(/depends on itself/) });
    expect(outcome(definitions, 'needs-missing')).toEqual({ decided: false, why: expect.stringMatching(/not in the definitions/) });
  });

  it('reads a server answer leniently: an odd flag becomes inconclusive, the others still evaluate', () => {
    const definitions = parseFlagDefinitions(
      {
        flags: [
          { key: 'fine', filters: person([]) },
          { key: 'held', filters: { ...person([]), holdout: { id: 1, exclusion_percentage: 100 } } },
          { key: 'not-held', filters: { ...person([]), holdout: { id: 2, exclusion_percentage: 0 } } },
          { key: 'broken', filters: { groups: 'nope' } },
          { key: 'device', bucketing_identifier: 'device_id', filters: person([]) },
        ],
      },
      { lenient: true },
    );
    const context = { distinctId: 'u', personProperties: {}, groups: {}, groupProperties: {} };
    const results = Object.fromEntries(
      evaluateAllFlags(definitions, context, SDK).map(({ flag, outcome: result }) => [flag.key, valueOf(result)]),
    );
    expect(results).toEqual({ fine: true, held: 'holdout-1', 'not-held': true, broken: 'inconclusive', device: 'inconclusive' });
    // Bucketed by device: the same device gets the same answer whoever is signed in on it.
    const byDevice = [{ key: 'device-half', bucketing_identifier: 'device_id', filters: person([], 50) }];
    const onDevice = (distinctId: string, device: string) =>
      valueOf(outcome(byDevice, 'device-half', { distinctId, person: { $device_id: device } }));
    const devices = Array.from({ length: 40 }, (_, i) => `device-${i}`);
    expect(devices.map((device) => onDevice('ada', device))).toEqual(devices.map((device) => onDevice('bob', device)));
    expect(new Set(devices.map((device) => onDevice('ada', device)))).toEqual(new Set([true, false]));
    expect(() => parseFlagDefinitions({ flags: 'x' }, { lenient: true })).toThrow(/flags must be a list/);
  });
});
