/**
 * Flag definitions as the dev server evaluates them. The shape is PostHog's own (the objects its
 * `/api/feature_flag/local_evaluation` endpoint returns), so a definition copied from a real project
 * works here unchanged; `parse-definitions.ts` also accepts a shorter hand-written form.
 */

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
  | 'is_date_after';

export interface PropertyFilter {
  key: string;
  operator: PropertyOperator;
  /** Absent for is_set / is_not_set. An array means "any of" for exact and is_not. */
  value?: unknown;
  /** 'person' (default) or 'group'; a group filter reads the properties of `group_type_index`. */
  type: 'person' | 'group';
  group_type_index?: number;
}

export interface ConditionGroup {
  properties: PropertyFilter[];
  /** 0–100; null or absent means everyone who matches the properties. */
  rollout_percentage: number | null;
  /** Forces this variant for everyone the condition matches (PostHog's "variant override"). */
  variant: string | null;
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
}

export interface FlagDefinition {
  key: string;
  name: string;
  active: boolean;
  /** A deleted flag is left out of decide answers entirely, as PostHog does. */
  deleted: boolean;
  filters: FlagFilters;
}

export interface FlagDefinitions {
  flags: FlagDefinition[];
  /** Group type index (as a string, PostHog's JSON key) to group type name, e.g. {"0": "company"}. */
  group_type_mapping: Record<string, string>;
}

/** What one evaluation sees: the hashing identity and the properties after request overrides. */
export interface EvaluationContext {
  distinctId: string;
  /** Group type name to group key, from the decide request. */
  groups: Record<string, string>;
  personProperties: Record<string, unknown>;
  /** Group type name to that group's properties. */
  groupProperties: Record<string, Record<string, unknown>>;
}

export type FlagValue = boolean | string;
