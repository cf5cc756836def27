/**
 * Flag definitions as PostHog's `/flags/definitions` (and the older
 * `/api/feature_flag/local_evaluation/`) endpoint returns them, after `parse-definitions.ts` checked
 * them. One shape for `hogtail dev`'s flags file and for the Node client's local evaluation, so a
 * definition copied from a real project works in both unchanged.
 */

/** Operators the engine evaluates; anything else in server definitions is kept and evaluates as inconclusive. */
export type PropertyOperator =
  | 'exact'
  | 'is_not'
  | 'icontains'
  | 'not_icontains'
  | 'regex'
  | 'not_regex'
  | 'gt'
  | 'gte'
  | 'lt'
  | 'lte'
  | 'is_set'
  | 'is_not_set'
  | 'is_date_before'
  | 'is_date_after'
  | 'starts_with'
  | 'not_starts_with'
  | 'ends_with'
  | 'not_ends_with'
  | 'semver_eq'
  | 'semver_neq'
  | 'semver_gt'
  | 'semver_gte'
  | 'semver_lt'
  | 'semver_lte'
  | 'semver_tilde'
  | 'semver_caret'
  | 'semver_wildcard';

export interface PropertyFilter {
  key: string;
  /** A PropertyOperator; any other text (a newer server's operator) makes the filter inconclusive. */
  operator: string;
  /** Absent for is_set / is_not_set. An array means "any of" for exact and is_not. */
  value?: unknown;
  /**
   * 'person' (default), 'group' (reads `group_type_index`'s properties), 'cohort' (value is the
   * cohort id, operator 'in' or 'not_in'), or 'flag' (key is another flag's key, value what it must
   * evaluate to).
   */
  type: 'person' | 'group' | 'cohort' | 'flag';
  group_type_index?: number;
  /** Inverts the filter (cohort definitions use it). */
  negation?: boolean;
}

/** A cohort as `send_cohorts` sends it: an AND/OR tree of filters. */
export interface PropertyGroup {
  type: 'AND' | 'OR';
  values: Array<PropertyGroup | PropertyFilter>;
}

export interface ConditionGroup {
  properties: PropertyFilter[];
  /** 0–100; null or absent means everyone who matches the properties. */
  rollout_percentage: number | null;
  /** Forces this variant for everyone the condition matches (PostHog's "variant override"). */
  variant: string | null;
  /**
   * Mixed targeting: this condition rolls out per group of this type (or per person, null) while
   * the flag's other conditions do not. Absent: the flag's own aggregation.
   */
  aggregation_group_type_index?: number | null;
}

export interface Variant {
  key: string;
  rollout_percentage: number;
  name?: string;
}

export interface FlagFilters {
  groups: ConditionGroup[];
  multivariate: { variants: Variant[] } | null;
  /** Payload per result: "true" for a boolean flag, the variant key for a multivariate one. */
  payloads: Record<string, unknown>;
  /** Set for a group-based flag: the flag is rolled out per group, not per person. */
  aggregation_group_type_index: number | null;
  /** A condition that matched its filters but not its rollout ends the evaluation (off). */
  early_exit?: boolean;
  /** An experiment holdout: this share of ids gets the value `holdout-<id>` before any condition. */
  holdout?: { id: number; exclusion_percentage: number } | null;
}

export interface FlagDefinition {
  key: string;
  name: string;
  /** PostHog's flag id, reported in the /flags answer's metadata; 0 when the file has none. */
  id: number;
  version: number;
  active: boolean;
  /** A deleted flag is left out of answers entirely, as PostHog does. */
  deleted: boolean;
  /** Needs the server's record of earlier values: never decidable locally. */
  ensure_experience_continuity: boolean;
  /** What a person flag hashes: the distinct id, or the `$device_id` person property. */
  bucketing_identifier: 'distinct_id' | 'device_id';
  filters: FlagFilters;
  /** Why the server's definition could not be read; the flag then always needs the server. */
  unusable?: string;
}

export interface FlagDefinitions {
  flags: FlagDefinition[];
  /** Group type index (as a string, PostHog's JSON key) to group type name, e.g. {"0": "company"}. */
  group_type_mapping: Record<string, string>;
  /** Cohort id (as a string) to its definition. A cohort not listed here (a static one) needs the server. */
  cohorts: Record<string, PropertyGroup>;
}

/** What one evaluation sees: the hashing identity and the properties after request overrides. */
export interface EvaluationContext {
  distinctId: string;
  /** Group type name to group key. */
  groups: Record<string, string>;
  personProperties: Record<string, unknown>;
  /** Group type name to that group's properties. */
  groupProperties: Record<string, Record<string, unknown>>;
}

export type FlagValue = boolean | string;

/** Why a flag got its value, in the /flags v2 answer's words. */
export interface FlagReason {
  code: 'condition_match' | 'no_condition_match' | 'out_of_rollout_bound' | 'no_group_type' | 'flag_disabled' | 'holdout_condition_value';
  condition_index?: number;
  description: string;
}

export type FlagOutcome =
  | { decided: true; value: FlagValue; payload: unknown; reason: FlagReason }
  /** Local evaluation cannot tell (a property not given, a static cohort, an unknown operator). */
  | { decided: false; why: string };
