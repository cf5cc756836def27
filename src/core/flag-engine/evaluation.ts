/**
 * One evaluation: one user's flags against one set of definitions (a single flag, or getAllFlags'
 * whole set). It remembers what it has decided, so each flag and each cohort is decided once however
 * many flags depend on it: 6,000 flags on one missing flag are 6,000 look-ups, not 36 million, and
 * cohorts shaped as a diamond 40 levels deep are 40 decisions, not 2^40.
 *
 * It also bounds recursion: a dependency loop is inconclusive, and so is a chain of flags (or of
 * cohorts) deeper than MAX_DEPTH, which would otherwise overflow the stack. Inconclusive is always
 * a safe answer: the flag is then asked of the server.
 */
import { InconclusiveMatchError } from './inconclusive';
import { ownValue } from '../own';
import type { EvaluationContext, FlagDefinition, FlagDefinitions, FlagReason, FlagValue, PropertyGroup } from './types';

/** Flags depending on flags (or cohorts on cohorts) deeper than this are left to the server. */
export const MAX_DEPTH = 100;

export interface Decision {
  value: FlagValue;
  reason: FlagReason;
}

type Outcome<T> = T | InconclusiveMatchError;

export interface Evaluation {
  readonly definitions: FlagDefinitions;
  readonly context: EvaluationContext;
  /** The flag's decision, made once per evaluation; throws InconclusiveMatchError when undecidable. */
  decide(flag: FlagDefinition): Decision;
  /** Another flag's value for the same user, by key. */
  flagValue(key: string): FlagValue;
  /** Whether these properties are in the cohort, decided once per cohort and set of properties. */
  inCohort(id: string, properties: Readonly<Record<string, unknown>>, match: (cohort: PropertyGroup) => boolean): boolean;
}

/** Live (not deleted) flags by key, built once per set of definitions: the first of a key wins. */
const indexes = new WeakMap<FlagDefinitions, Map<string, FlagDefinition>>();

function flagIndex(definitions: FlagDefinitions): Map<string, FlagDefinition> {
  let index = indexes.get(definitions);
  if (index === undefined) {
    index = new Map();
    for (const flag of definitions.flags) if (!flag.deleted && !index.has(flag.key)) index.set(flag.key, flag);
    indexes.set(definitions, index);
  }
  return index;
}

/** Runs `work` once per key; later calls get the same value or the same inconclusive error. */
function remembered<T>(memo: Map<unknown, Outcome<T>>, key: unknown, work: () => T): T {
  let outcome = memo.get(key);
  if (outcome === undefined) {
    try {
      outcome = work();
    } catch (error) {
      if (!(error instanceof InconclusiveMatchError)) throw error;
      outcome = error;
    }
    memo.set(key, outcome);
  }
  if (outcome instanceof InconclusiveMatchError) throw outcome;
  return outcome;
}

/** `decideFlag` is the engine's decision for one flag (evaluate-flag.ts), handed in to keep imports one-way. */
export function createEvaluation(
  definitions: FlagDefinitions,
  context: EvaluationContext,
  decideFlag: (flag: FlagDefinition, evaluation: Evaluation) => Decision,
): Evaluation {
  const decisions = new Map<unknown, Outcome<Decision>>();
  const missing = new Map<unknown, Outcome<FlagValue>>();
  const cohorts = new Map<Readonly<Record<string, unknown>>, Map<unknown, Outcome<boolean>>>();
  const flagsOnPath: string[] = [];
  const cohortsOnPath: string[] = [];

  const evaluation: Evaluation = {
    definitions,
    context,
    decide(flag) {
      return remembered(decisions, flag, () => {
        if (flagsOnPath.includes(flag.key))
          throw new InconclusiveMatchError(`flag "${flag.key}" depends on itself through ${flagsOnPath.join(' → ')}`);
        if (flagsOnPath.length >= MAX_DEPTH)
          throw new InconclusiveMatchError(`flag "${flagsOnPath[0]}" depends on flags more than ${MAX_DEPTH} levels deep`);
        flagsOnPath.push(flag.key);
        try {
          return decideFlag(flag, evaluation);
        } finally {
          flagsOnPath.pop();
        }
      });
    },
    flagValue(key) {
      const flag = flagIndex(definitions).get(key);
      if (flag !== undefined) return evaluation.decide(flag).value;
      // Remembered too: building an error is most of the cost when thousands of flags need one missing flag.
      return remembered(missing, key, () => {
        throw new InconclusiveMatchError(`the flag "${key}" another flag depends on is not in the definitions`);
      });
    },
    inCohort(id, properties, match) {
      let memo = cohorts.get(properties);
      if (memo === undefined) cohorts.set(properties, (memo = new Map()));
      return remembered(memo, id, () => {
        const cohort = ownValue(definitions.cohorts, id);
        if (cohort === undefined) throw new InconclusiveMatchError(`cohort ${id} was not sent with the definitions (a static cohort)`);
        if (cohortsOnPath.includes(id)) throw new InconclusiveMatchError(`cohort ${id} refers to itself`);
        if (cohortsOnPath.length >= MAX_DEPTH) throw new InconclusiveMatchError(`cohorts nest more than ${MAX_DEPTH} levels deep`);
        cohortsOnPath.push(id);
        try {
          return match(cohort);
        } finally {
          cohortsOnPath.pop();
        }
      });
    },
  };
  return evaluation;
}
