/**
 * Properties the server needs for its special events (docs/wire-protocol.md, "Reserved events"). Without them the event is
 * stored but does nothing useful (a pageview with no URL, an identify that sets nothing), and a
 * migration cannot be undone, so such rows are rejected for a person to look at.
 */
type Rule = (properties: Record<string, unknown>) => string | undefined;

const nonBlankString =
  (name: string): Rule =>
  (properties) => {
    const value = properties[name];
    return typeof value === 'string' && value.trim() !== '' ? undefined : `needs property ${name} as a non-empty string`;
  };

const object =
  (name: string): Rule =>
  (properties) => {
    const value = properties[name];
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? undefined : `needs property ${name} as an object`;
  };

const key =
  (name: string): Rule =>
  (properties) => {
    const value = properties[name];
    if (typeof value === 'number' && Number.isFinite(value)) return undefined;
    return typeof value === 'string' && value.trim() !== '' ? undefined : `needs property ${name} as a non-empty string`;
  };

const RULES: Record<string, Rule[]> = {
  $pageview: [nonBlankString('$current_url')],
  $screen: [nonBlankString('$screen_name')],
  $identify: [object('$set')],
  $groupidentify: [nonBlankString('$group_type'), key('$group_key'), object('$group_set')],
  $create_alias: [nonBlankString('alias')],
};

/**
 * Other spellings of special events, as migration sources write them. The spec's migration guidance
 * (docs/wire-protocol.md, "Historical migration") says `$group_identify`, but the server only acts on `$groupidentify`: sent as written,
 * a group update would be stored as a plain custom event that changes no group, for good.
 */
const SPELLINGS: Record<string, string> = {
  $group_identify: '$groupidentify',
};

/** The name the server acts on. */
export function canonicalEventName(event: string): string {
  return SPELLINGS[event] ?? event;
}

export function checkSpecialEvent(event: string, properties: Record<string, unknown>): string | undefined {
  const rules = RULES[event];
  if (rules === undefined) return undefined;
  for (const rule of rules) {
    const problem = rule(properties);
    if (problem !== undefined) return `${event} ${problem}`;
  }
  return undefined;
}
