/**
 * PostHog's semver operators for flag filters (app versions, SDK versions): a leading `v` and any
 * pre-release or build suffix are ignored, missing parts count as 0, and a part that is not a plain
 * number (or has a leading zero) makes the value unreadable. `~1.2.3` means >=1.2.3 <1.3.0,
 * `^1.2.3` >=1.2.3 <2.0.0 (`^0.2.3` <0.3.0, `^0.0.3` <0.0.4), `1.2.*` >=1.2.0 <1.3.0.
 */
type Version = [number, number, number];

export const SEMVER_OPERATORS = new Set([
  'semver_eq',
  'semver_neq',
  'semver_gt',
  'semver_gte',
  'semver_lt',
  'semver_lte',
  'semver_tilde',
  'semver_caret',
  'semver_wildcard',
]);

/** undefined when either side is not a version: the caller decides what that means. */
export function matchSemver(operator: string, actual: unknown, expected: unknown): boolean | undefined {
  const version = parseVersion(String(actual));
  const bounds = rangeOf(operator, String(expected));
  if (version === undefined || bounds === undefined) return undefined;
  if ('lower' in bounds) return compare(version, bounds.lower) >= 0 && compare(version, bounds.upper) < 0;
  const order = compare(version, bounds.exact);
  switch (operator) {
    case 'semver_eq':
      return order === 0;
    case 'semver_neq':
      return order !== 0;
    case 'semver_gt':
      return order > 0;
    case 'semver_gte':
      return order >= 0;
    case 'semver_lt':
      return order < 0;
    default:
      return order <= 0;
  }
}

/** Whether a filter value can be read for the operator (checked when a flags file is loaded). */
export function isSemverFilterValue(operator: string, expected: unknown): boolean {
  return rangeOf(operator, String(expected)) !== undefined;
}

function rangeOf(operator: string, text: string): { exact: Version } | { lower: Version; upper: Version } | undefined {
  if (operator === 'semver_wildcard') return wildcard(text);
  const version = parseVersion(text);
  if (version === undefined) return undefined;
  const [major, minor, patch] = version;
  if (operator === 'semver_tilde') return { lower: version, upper: [major, minor + 1, 0] };
  if (operator === 'semver_caret') {
    const upper: Version = major > 0 ? [major + 1, 0, 0] : minor > 0 ? [0, minor + 1, 0] : [0, 0, patch + 1];
    return { lower: version, upper };
  }
  return { exact: version };
}

function wildcard(text: string): { lower: Version; upper: Version } | undefined {
  const parts = text
    .trim()
    .replace(/^[vV]/, '')
    .replace(/\.?\*$/, '')
    .split('.');
  const major = part(parts[0]);
  if (major === undefined || parts.length > 2) return undefined;
  if (parts.length === 1) return { lower: [major, 0, 0], upper: [major + 1, 0, 0] };
  const minor = part(parts[1]);
  return minor === undefined ? undefined : { lower: [major, minor, 0], upper: [major, minor + 1, 0] };
}

function parseVersion(text: string): Version | undefined {
  const base = text.trim().replace(/^[vV]/, '').split('-')[0]?.split('+')[0] ?? '';
  if (base === '' || base.startsWith('.')) return undefined;
  const [a, b, c] = base.split('.');
  const major = part(a);
  const minor = b === undefined || b === '' ? 0 : part(b);
  const patch = c === undefined || c === '' ? 0 : part(c);
  return major === undefined || minor === undefined || patch === undefined ? undefined : [major, minor, patch];
}

function part(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d+$/.test(text) || (text.length > 1 && text.startsWith('0'))) return undefined;
  return Number(text);
}

function compare(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return (a[i] ?? 0) - (b[i] ?? 0);
  return 0;
}
