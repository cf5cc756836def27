/**
 * Cohort and flag-dependency filters. A cohort sent with the definitions (`send_cohorts`) is an
 * AND/OR tree of person filters matched like a condition's; a cohort that was not sent (a static
 * one, a list of people only the server has) is inconclusive. A flag filter asks what another flag
 * evaluates to for the same user.
 */
import { InconclusiveMatchError } from './inconclusive';
import type { FlagValue, PropertyFilter, PropertyGroup } from './types';

export interface FilterMatcher {
  /** A person or group property filter against the given properties. */
  property(filter: PropertyFilter, properties: Readonly<Record<string, unknown>>): boolean;
  /** Another flag's value for the same user; throws InconclusiveMatchError when that is unknown. */
  flagValue(key: string): FlagValue;
  /**
   * Whether the properties are in the cohort, `match` deciding it from the cohort's definition; the
   * evaluation remembers each answer and refuses loops (evaluation.ts).
   */
  inCohort(id: string, properties: Readonly<Record<string, unknown>>, match: (cohort: PropertyGroup) => boolean): boolean;
}

/** One filter of any type. Cohort and flag filters always read the person's properties. */
export function matchFilter(filter: PropertyFilter, properties: Readonly<Record<string, unknown>>, matcher: FilterMatcher): boolean {
  if (filter.type === 'cohort') {
    const inside = matcher.inCohort(String(filter.value), properties, (cohort) => matchGroup(cohort, properties, matcher));
    return filter.operator === 'not_in' ? !inside : inside;
  }
  if (filter.type === 'flag') return flagEvaluatesTo(filter.value, matcher.flagValue(filter.key));
  return matcher.property(filter, properties);
}

/**
 * AND needs every member, OR any one. A member that cannot be decided only matters when no other
 * member settles the answer: one definite miss settles an AND, one definite hit an OR.
 */
export function matchGroup(group: PropertyGroup, properties: Readonly<Record<string, unknown>>, matcher: FilterMatcher): boolean {
  const settles = group.type === 'OR';
  let unknown: InconclusiveMatchError | undefined;
  for (const member of group.values) {
    let matched: boolean;
    try {
      matched = 'values' in member ? matchGroup(member, properties, matcher) : matchMember(member, properties, matcher);
    } catch (error) {
      if (!(error instanceof InconclusiveMatchError)) throw error;
      unknown ??= error;
      continue;
    }
    if (matched === settles) return settles;
  }
  if (unknown !== undefined) throw unknown;
  // An empty AND holds; an empty OR does not, as on PostHog.
  return !settles;
}

function matchMember(filter: PropertyFilter, properties: Readonly<Record<string, unknown>>, matcher: FilterMatcher): boolean {
  const matched = matchFilter(filter, properties, matcher);
  return filter.negation === true ? !matched : matched;
}

/** true: the flag is on (any variant); false: it is off; a string: exactly that variant. */
function flagEvaluatesTo(expected: unknown, value: FlagValue): boolean {
  if (typeof expected === 'boolean') return expected ? value !== false && value !== '' : value === false;
  if (typeof expected === 'string') return value === expected;
  return false;
}
