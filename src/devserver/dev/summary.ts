/** `/_dev/summary`: everything the page's side panels show, as JSON a script can read too. */
import type { AssignmentLog } from './assignments';
import type { DevInsights, Insights } from './insights';
import type { PeopleIndex } from './people';
import type { DevRejection, DevStore } from './store';
import type { FlagDefinition, FlagsDecide, FlagValue } from '../flags';

export interface DevSummary {
  dataDir: string;
  events: { total: number; inMemory: number; byName: Record<string, number>; loadedAtStart: number };
  people: number;
  /** Groups seen in `$groupidentify` events, of every type. */
  groupsTotal: number;
  rejections: {
    total: number;
    byReason: Array<{ status: number; reason: string; count: number }>;
    recent: DevRejection[];
  };
  groups: Array<{ groupType: string; index: number; count: number }>;
  flags: {
    file: string | null;
    loadedAt: string | null;
    /** Why the file's latest content is not in use; null when it is. */
    error: string | null;
    definitions: FlagSummary[];
    /** The first page of `/_dev/flag-users`: recently seen distinct ids and their flags. */
    users: FlagUser[];
    /** How many people there are in all; page through them with `/_dev/flag-users`. */
    usersTotal: number;
  };
  /** Web vitals per page and heatmap clicks per page URL (insights.ts). */
  insights: DevInsights;
}

/** What decide last answered a distinct id, or what it would answer now. */
export interface FlagUser {
  distinctId: string;
  source: 'decide' | 'evaluated';
  at: string;
  flags: Record<string, FlagValue>;
}

export interface FlagSummary {
  key: string;
  active: boolean;
  kind: 'boolean' | 'multivariate';
  groupType: string | null;
  conditions: Array<{ properties: number; rolloutPercentage: number | null; variant: string | null }>;
  variants: Array<{ key: string; rolloutPercentage: number }>;
  payloadKeys: string[];
}

export interface SummaryParts {
  store: DevStore;
  people: PeopleIndex;
  assignments: AssignmentLog;
  flags: FlagsDecide;
  insights?: Insights;
  /** How many users the flags panel lists. Default 50. */
  userLimit?: number;
}

/** One page of people with their flags, most recently seen first. */
export function listFlagUsers(
  { people, assignments, flags }: Pick<SummaryParts, 'people' | 'assignments' | 'flags'>,
  offset: number,
  limit: number,
): { total: number; offset: number; users: FlagUser[] } {
  const users = people.people(limit, offset).map((person): FlagUser => {
    const answered = assignments.get(person.distinctId);
    if (answered !== undefined) {
      return { distinctId: person.distinctId, source: 'decide', at: answered.at, flags: answered.featureFlags };
    }
    return {
      distinctId: person.distinctId,
      source: 'evaluated',
      at: person.lastSeen,
      flags: flags.evaluate(person.distinctId).featureFlags,
    };
  });
  return { total: people.personCount(), offset, users };
}

export function buildSummary({ store, people, assignments, flags, insights, userLimit = 50 }: SummaryParts): DevSummary {
  // fromEntries defines each name as its own key, so an event called "__proto__" is counted too.
  const byName: Record<string, number> = Object.fromEntries(store.eventsByName());

  const definitions = flags.definitions();
  const status = flags.fileStatus();
  const firstPage = listFlagUsers({ people, assignments, flags }, 0, userLimit);

  return {
    dataDir: store.dataDir,
    events: { total: store.visibleEvents(), inMemory: store.eventsInMemory(), byName, loadedAtStart: store.loaded.events },
    people: people.personCount(),
    groupsTotal: people.groupCount(),
    rejections: {
      total: store.totalRejections(),
      byReason: [...store.rejectionCounts().values()].sort((a, b) => b.count - a.count),
      recent: store.rejections().slice(-20).reverse(),
    },
    groups: people.groupTypes().map((groupType, index) => ({ groupType, index, count: people.groups(index).length })),
    flags: {
      file: status?.file ?? null,
      loadedAt: status?.loadedAt ?? null,
      error: status?.error ?? null,
      definitions: definitions.flags.filter((flag) => !flag.deleted).map((flag) => summarizeFlag(flag, definitions.group_type_mapping)),
      users: firstPage.users,
      usersTotal: firstPage.total,
    },
    insights: insights?.summary() ?? { webVitals: [], heatmaps: [] },
  };
}

function summarizeFlag(flag: FlagDefinition, mapping: Readonly<Record<string, string>>): FlagSummary {
  const { filters } = flag;
  const index = filters.aggregation_group_type_index;
  return {
    key: flag.key,
    active: flag.active,
    kind: filters.multivariate === null ? 'boolean' : 'multivariate',
    groupType: index === null ? null : (mapping[String(index)] ?? null),
    conditions: filters.groups.map((group) => ({
      properties: group.properties.length,
      rolloutPercentage: group.rollout_percentage,
      variant: group.variant,
    })),
    variants: (filters.multivariate?.variants ?? []).map((variant) => ({
      key: variant.key,
      rolloutPercentage: variant.rollout_percentage,
    })),
    payloadKeys: Object.keys(filters.payloads),
  };
}
