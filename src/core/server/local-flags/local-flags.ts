/**
 * Local evaluation for the server client (Node and edge), given a personalApiKey: the polled
 * definitions through the shared flag engine, with no request per check. Every answer is either
 * decided here or `undefined`, meaning "ask the server" (definitions not loaded yet or dropped after
 * a 402, a flag not in them, or an inconclusive flag: a property not passed, a static cohort, an
 * operator this version does not know). The platform hands in sha1 (core has no hashing of its own)
 * and the executor every request of the client goes through.
 */
import { ownValue, setOwn } from '../../own';
import {
  createFlagHasher,
  evaluateAllFlags,
  evaluateFlag,
  type EngineOptions,
  type EvaluationContext,
  type FlagDefinition,
  type FlagDefinitions,
  type FlagValue,
} from '../../flag-engine';
import { createDefinitionsPoller, type DefinitionsPoller, type DefinitionsPollerOptions } from './definitions-poller';

/** The poll's options (it loads the definitions), and the hash the evaluation needs. */
export interface LocalFlagsOptions extends Omit<DefinitionsPollerOptions, 'onLoad'> {
  /** Hex sha1 of a UTF-8 string, for the bucketing hash (the platform's: node:crypto, or a JS one). */
  sha1: (text: string) => string;
}

export interface LocalLookup {
  groups?: Record<string, string | number> | undefined;
  personProperties?: Record<string, unknown> | undefined;
  groupProperties?: Record<string, Record<string, unknown>> | undefined;
}

export interface LocalFlag {
  value: FlagValue;
  /** As stored (usually JSON text); undefined when the value has none. */
  payload: unknown;
  /** The definition's id and version, for `$feature_flag_called` as posthog-node sends them. */
  id: number;
  version: number;
}

export interface LocalAll {
  flags: Record<string, FlagValue>;
  payloads: Record<string, unknown>;
  /** Flags the definitions hold that could not be decided here. */
  undecided: string[];
}

export interface LocalFlags {
  /** One flag, or undefined when only the server can answer. Waits for the first load if it is still running. */
  flag(key: string, distinctId: string, lookup: LocalLookup): Promise<LocalFlag | undefined>;
  /** The same without waiting, for capture(): undefined also while nothing is loaded. */
  flagNow(key: string, distinctId: string, lookup: LocalLookup): LocalFlag | undefined;
  /** Every flag the definitions hold; undefined while nothing is loaded. */
  all(distinctId: string, lookup: LocalLookup): Promise<LocalAll | undefined>;
  allNow(distinctId: string, lookup: LocalLookup): LocalAll | undefined;
  readonly poller: DefinitionsPoller;
}

export function createLocalFlags(options: LocalFlagsOptions): LocalFlags {
  const engine: EngineOptions = { hash: createFlagHasher(options.sha1), knowsAllProperties: false };
  const poller = createDefinitionsPoller(options);
  let firstLoadDone = false;
  void poller.firstLoad.then(() => {
    firstLoadDone = true;
  });
  const afterFirstLoad = (): Promise<void> | undefined => (firstLoadDone ? undefined : poller.firstLoad);

  // Rebuilt only when a poll brings new definitions, so a check is one map lookup, not a scan.
  let indexed: { definitions: FlagDefinitions; byKey: Map<string, FlagDefinition> } | undefined;
  const flagByKey = (definitions: FlagDefinitions, key: string): FlagDefinition | undefined => {
    if (indexed?.definitions !== definitions) {
      indexed = { definitions, byKey: new Map(definitions.flags.filter((flag) => !flag.deleted).map((flag) => [flag.key, flag])) };
    }
    return indexed.byKey.get(key);
  };

  function flagNow(key: string, distinctId: string, lookup: LocalLookup): LocalFlag | undefined {
    const definitions = poller.definitions;
    const flag = definitions === undefined ? undefined : flagByKey(definitions, key);
    if (definitions === undefined || flag === undefined) return undefined;
    const outcome = evaluateFlag(flag, definitions, contextOf(distinctId, lookup), engine);
    if (!outcome.decided) return undefined;
    return { value: outcome.value, payload: outcome.value === false ? undefined : outcome.payload, id: flag.id, version: flag.version };
  }

  function allNow(distinctId: string, lookup: LocalLookup): LocalAll | undefined {
    const definitions = poller.definitions;
    if (definitions === undefined) return undefined;
    const result: LocalAll = { flags: {}, payloads: {}, undecided: [] };
    for (const { flag, outcome } of evaluateAllFlags(definitions, contextOf(distinctId, lookup), engine)) {
      if (!outcome.decided) {
        result.undecided.push(flag.key);
        continue;
      }
      setOwn(result.flags, flag.key, outcome.value);
      if (outcome.value !== false && outcome.payload !== undefined && outcome.payload !== null)
        setOwn(result.payloads, flag.key, outcome.payload);
    }
    return result;
  }

  return {
    async flag(key, distinctId, lookup) {
      await afterFirstLoad();
      return flagNow(key, distinctId, lookup);
    },
    flagNow,
    async all(distinctId, lookup) {
      await afterFirstLoad();
      return allNow(distinctId, lookup);
    },
    allNow,
    poller,
  };
}

function contextOf(distinctId: string, lookup: LocalLookup): EvaluationContext {
  // Built from entries, not by assignment: a group type named `__proto__` stays an entry.
  const groups = Object.fromEntries(Object.entries(lookup.groups ?? {}).map(([type, key]) => [type, String(key)]));
  return {
    distinctId,
    groups,
    // posthog-node adds these itself, so a condition on them matches without the caller passing them.
    personProperties: { distinct_id: distinctId, ...lookup.personProperties },
    groupProperties: Object.fromEntries(
      Object.keys(groups).map((type) => [type, { $group_key: groups[type], ...ownValue(lookup.groupProperties, type) }]),
    ),
  };
}
