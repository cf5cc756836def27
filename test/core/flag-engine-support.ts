// What the flag engine tests share: the engine as an SDK uses it (knowsAllProperties false, so a
// filter it cannot decide is inconclusive) and one flag's outcome for a call.
import { createHash } from 'node:crypto';
import { createFlagHasher, evaluateFlag, parseFlagDefinitions, type EngineOptions, type FlagOutcome } from '../../src/core/flag-engine';

export const sha1 = (text: string) => createHash('sha1').update(text, 'utf8').digest('hex');
export const SDK: EngineOptions = { hash: createFlagHasher(sha1), knowsAllProperties: false };

export interface Call {
  distinctId?: string;
  person?: Record<string, unknown>;
  groups?: Record<string, string>;
  groupProperties?: Record<string, Record<string, unknown>>;
}

export function outcome(definitions: unknown, key: string, call: Call = {}, options: EngineOptions = SDK): FlagOutcome {
  const parsed = parseFlagDefinitions(definitions, { lenient: true });
  const flag = parsed.flags.find((candidate) => candidate.key === key);
  if (flag === undefined) throw new Error(`no flag ${key}`);
  return evaluateFlag(
    flag,
    parsed,
    {
      distinctId: call.distinctId ?? 'user-1',
      personProperties: call.person ?? {},
      groups: call.groups ?? {},
      groupProperties: call.groupProperties ?? {},
    },
    options,
  );
}

export const valueOf = (result: FlagOutcome) => (result.decided ? result.value : 'inconclusive');
