/**
 * How a condition's value is compared with what the page has (its URL, its device type, an event's
 * property): posthog-js's operators, so a condition set in PostHog's UI means the same here. The
 * default is "contains", case-insensitive, as posthog-js's. A regex that does not compile matches
 * nothing (and its negation everything), never throws.
 */
import type { MatchType } from './types';

const regexMatches = (value: string, pattern: string): boolean => {
  try {
    return new RegExp(pattern).test(value);
  } catch {
    return false;
  }
};

const COMPARE: Record<MatchType, (value: string, target: string) => boolean> = {
  exact: (value, target) => value === target,
  is_not: (value, target) => value === target,
  icontains: (value, target) => value.toLowerCase().includes(target.toLowerCase()),
  not_icontains: (value, target) => value.toLowerCase().includes(target.toLowerCase()),
  regex: regexMatches,
  not_regex: regexMatches,
};

/** The negated operators: true when no target matches. */
const NEGATED = new Set<string>(['is_not', 'not_icontains', 'not_regex']);

/** Whether `value` meets the condition (`targets` under `type`); an unknown operator matches nothing. */
export function matches(value: string, targets: readonly unknown[], type?: MatchType | null): boolean {
  const operator = type ?? 'icontains';
  const compare = COMPARE[operator] as ((value: string, target: string) => boolean) | undefined;
  if (!compare) return false;
  const any = targets.some((target) => compare(value, String(target)));
  return NEGATED.has(operator) ? !any : any;
}
