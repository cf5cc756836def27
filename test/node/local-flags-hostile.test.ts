// Local flag evaluation (personalApiKey) against definitions an attacker, or an unlucky project,
// can produce: regexes that backtrack catastrophically with visitor-supplied values, cohorts shaped
// as a diamond 40 levels deep, cohort ids and keys named after Object.prototype members, dependency
// chains 1,000 flags deep, and 6,000 flags on one missing flag. A real definitions server on
// 127.0.0.1; every call answers, locally when it can be decided, else from the server.
import { afterEach, describe, expect, it } from 'vitest';
import { PostHog } from '../../src/node';
import { PERSONAL_KEY, startDefinitionsServer, type DefinitionsServer } from './support/definitions-server';

let server: DefinitionsServer | undefined;
const clients: PostHog[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.shutdown(2000)));
  await server?.close();
  server = undefined;
});

async function clientFor(definitions: unknown, remote: Record<string, boolean | string> = {}) {
  server = await startDefinitionsServer(definitions);
  server.remote = () => remote;
  const client = new PostHog('phc_project', { host: server.url, personalApiKey: PERSONAL_KEY, flushAt: 1000, flushOnExitTimeout: 0 });
  const errors: string[] = [];
  client.on('error', (error) => errors.push(error.message));
  clients.push(client);
  expect(await client.waitForLocalEvaluationReady(5000)).toBe(true);
  return { server, client, errors };
}

const person = (key: string, operator: string, value: unknown) => ({ key, operator, value, type: 'person' });
const flag = (key: string, properties: unknown[], extra: Record<string, unknown> = {}) => ({
  key,
  active: true,
  filters: { groups: [{ properties, rollout_percentage: 100 }], ...extra },
});
const quiet = { sendFeatureFlagEvents: false };

describe('regex conditions with visitor-supplied values', () => {
  const definitions = {
    flags: [
      flag('corp-staff', [person('email', 'regex', '^([\\w.]+)+@corp\\.com$')]),
      flag('a-run', [person('name', 'regex', '^(a+)+$')]),
      flag('not-a-run', [person('name', 'not_regex', '^(a+)+$')]),
      flag('no-admins', [person('name', 'regex', '^(?!admin)')]),
    ],
  };

  it('decides nested repetition locally without blocking, and leaves a lookahead to the server', async () => {
    const { server, client } = await clientFor(definitions, { 'no-admins': 'from-server' });
    // Each of these would keep a backtracking engine busy for hours.
    const email = 'john.smith.'.repeat(4) + '@corp.co';
    expect(await client.getFeatureFlag('corp-staff', 'visitor', { personProperties: { email }, ...quiet })).toBe(false);
    expect(await client.getFeatureFlag('a-run', 'visitor', { personProperties: { name: 'a'.repeat(50) + '!' }, ...quiet })).toBe(false);
    expect(await client.getFeatureFlag('not-a-run', 'visitor', { personProperties: { name: 'a'.repeat(50) + '!' }, ...quiet })).toBe(true);
    // Ordinary matches still decide locally.
    expect(await client.getFeatureFlag('corp-staff', 'staff', { personProperties: { email: 'john.smith@corp.com' }, ...quiet })).toBe(true);
    expect(await client.getFeatureFlag('a-run', 'staff', { personProperties: { name: 'aaaa' }, ...quiet })).toBe(true);
    expect(server.remoteRequests()).toEqual([]);
    // A lookahead needs a backtracking engine: the server decides it.
    expect(await client.getFeatureFlag('no-admins', 'visitor', { personProperties: { name: 'bob' }, ...quiet })).toBe('from-server');
    expect(server.remoteRequests()).toHaveLength(1);
  });
});

describe('cohorts', () => {
  it('decides cohorts shaped as a diamond 40 levels deep (cohort i = OR(i+1, i+1)) locally', async () => {
    const cohorts: Record<string, unknown> = {
      '40': { type: 'AND', values: [person('plan', 'exact', 'pro')] },
    };
    for (let i = 0; i < 40; i++) {
      const next = { key: 'id', value: i + 1, type: 'cohort', operator: 'in' };
      cohorts[String(i)] = { type: 'OR', values: [next, next] };
    }
    const { server, client } = await clientFor({ cohorts, flags: [flag('deep', [{ key: 'id', value: 0, type: 'cohort' }])] });
    expect(await client.getFeatureFlag('deep', 'pro-user', { personProperties: { plan: 'pro' }, ...quiet })).toBe(true);
    expect(await client.getFeatureFlag('deep', 'free-user', { personProperties: { plan: 'free' }, ...quiet })).toBe(false);
    expect(server.remoteRequests()).toEqual([]);
  });

  it('never rejects for cohort ids named toString, constructor or __proto__: undefined ones go to the server, a defined one decides', async () => {
    // JSON, not an object literal: `__proto__` is then a real key, as it is in a server's answer.
    const definitions = JSON.parse(`{
      "cohorts": { "__proto__": { "type": "AND", "values": [{ "key": "plan", "value": "pro", "type": "person" }] } },
      "flags": [
        ${JSON.stringify(flag('to-string', [{ key: 'id', value: 'toString', type: 'cohort' }]))},
        ${JSON.stringify(flag('ctor', [{ key: 'id', value: 'constructor', type: 'cohort' }]))},
        ${JSON.stringify(flag('proto', [{ key: 'id', value: '__proto__', type: 'cohort' }]))}
      ]
    }`) as unknown;
    const { server, client } = await clientFor(definitions, { 'to-string': 'server-1', ctor: 'server-2' });
    const properties = { personProperties: { plan: 'pro' }, ...quiet };
    expect(await client.getFeatureFlag('to-string', 'u1', properties)).toBe('server-1');
    expect(await client.getFeatureFlag('ctor', 'u2', properties)).toBe('server-2');
    expect(server.remoteRequests()).toHaveLength(2);
    expect(await client.getFeatureFlag('proto', 'u3', properties)).toBe(true);
    expect(server.remoteRequests()).toHaveLength(2);
  });
});

describe('flag dependencies', () => {
  const dependsOn = (key: string, on: string) => flag(key, [{ key: on, type: 'flag', value: true, operator: 'flag_evaluates_to' }]);

  it('a chain 1,000 flags deep answers from the server instead of rejecting', async () => {
    const flags = Array.from({ length: 1_000 }, (_, i) => (i === 999 ? flag('chain-999', []) : dependsOn(`chain-${i}`, `chain-${i + 1}`)));
    const { client } = await clientFor({ flags }, { 'chain-0': 'from-server' });
    expect(await client.getFeatureFlag('chain-0', 'u', quiet)).toBe('from-server');
    // The end of the chain is within reach locally.
    expect(await client.getFeatureFlag('chain-950', 'u', { ...quiet, onlyEvaluateLocally: true })).toBe(true);
  });

  it('6,000 flags whose first condition depends on a missing flag: getAllFlags answers every one from their second', async () => {
    // The first condition is undecidable (the flag it needs is not defined); the second decides.
    const flags = Array.from({ length: 6_000 }, (_, i) => ({
      key: `f-${i}`,
      active: true,
      filters: {
        groups: [
          { properties: [{ key: 'missing', type: 'flag', value: true, operator: 'flag_evaluates_to' }], rollout_percentage: 100 },
          { properties: [i % 2 === 0 ? person('plan', 'exact', 'pro') : person('plan', 'icontains', 'PR')], rollout_percentage: 100 },
        ],
      },
    }));
    const { server, client } = await clientFor({ flags });
    const all = await client.getAllFlags('u', { personProperties: { plan: 'pro' } });
    expect(Object.keys(all)).toHaveLength(6_000);
    expect(Object.values(all).every((value) => value === true)).toBe(true);
    expect(server.remoteRequests()).toEqual([]);
  });
});

describe('keys named after Object.prototype members', () => {
  const definitions = JSON.parse(`{
    "group_type_mapping": { "0": "constructor" },
    "flags": [
      ${JSON.stringify(
        flag('checkout', [], {
          multivariate: {
            variants: [
              { key: 'constructor', rollout_percentage: 50 },
              { key: 'toString', rollout_percentage: 50 },
            ],
          },
          payloads: {},
        }),
      )},
      ${JSON.stringify({ key: 'per-company', active: true, filters: { aggregation_group_type_index: 0, groups: [{ properties: [], rollout_percentage: 100 }] } })},
      ${JSON.stringify(flag('__proto__', []))}
    ]
  }`) as unknown;

  it('a variant named constructor has no payload, a group type named constructor needs the group, a flag named __proto__ exists', async () => {
    const { server, client } = await clientFor(definitions);
    const variant = await client.getFeatureFlag('checkout', 'u', quiet);
    expect(['constructor', 'toString']).toContain(variant);
    expect(await client.getFeatureFlagPayload('checkout', 'u')).toBeUndefined();
    expect(await client.getFeatureFlag('per-company', 'u', quiet)).toBe(false);
    expect(await client.getFeatureFlag('per-company', 'u', { groups: { constructor: 'acme' }, ...quiet })).toBe(true);
    expect(await client.getFeatureFlag('__proto__', 'u', quiet)).toBe(true);
    const all = await client.getAllFlagsAndPayloads('u');
    expect(Object.keys(all.featureFlags).sort()).toEqual(['__proto__', 'checkout', 'per-company']);
    expect(Object.getPrototypeOf(all.featureFlags)).toBe(Object.prototype);
    expect(all.featureFlagPayloads).toEqual({});
    expect(server.remoteRequests()).toEqual([]);
  });

  it('from the server: a flag it did not name is undefined, not an inherited function; one named __proto__ is kept', async () => {
    const { client } = await clientFor(
      { flags: [flag('remote-only', [person('plan', 'exact', 'pro')])] },
      JSON.parse('{"__proto__": "variant-x"}') as Record<string, string>,
    );
    expect(await client.getFeatureFlag('toString', 'u', quiet)).toBeUndefined();
    expect(await client.getFeatureFlagPayload('constructor', 'u')).toBeUndefined();
    expect(await client.getFeatureFlag('__proto__', 'u', quiet)).toBe('variant-x');
  });
});
