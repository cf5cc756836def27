/**
 * What `hogtail dev` knows about people and groups, derived from the events it received: person
 * properties from `$set` / `$set_once` (for flag conditions), and groups from `$groupidentify` (for
 * the management API's groups endpoints and group flag conditions). Rebuilt from the log on start.
 */
import type { Group } from '../../api/types';
import { isPlainObject } from '../ingest/json-shape';
import type { ReceivedEvent } from '../ingest/types';

export interface Person {
  distinctId: string;
  properties: Record<string, unknown>;
  /** Last event or decide request, ISO 8601. */
  lastSeen: string;
  events: number;
}

export interface PeopleIndex {
  observe(event: ReceivedEvent): void;
  /** A decide request makes a distinct id known, even before it sends an event. */
  touch(distinctId: string, at: string): void;
  personProperties(distinctId: string): Readonly<Record<string, unknown>> | undefined;
  groupProperties(groupType: string, groupKey: string): Readonly<Record<string, unknown>> | undefined;
  /** Groups of one type index, for the management endpoints. */
  groups(groupTypeIndex: number): Group[];
  /** Group type names by index, in order of first appearance (how PostHog numbers them). */
  groupTypes(): readonly string[];
  /** Most recently seen first, skipping `offset`. */
  people(limit: number, offset?: number): Person[];
  /** People only: the stand-in distinct ids of `$groupidentify` events are groups, counted apart. */
  personCount(): number;
  groupCount(): number;
  /** Forgets everyone, for a clear. */
  reset(): void;
}

const MAX_PEOPLE = 50_000;

export function createPeopleIndex(): PeopleIndex {
  // Map order is recency order: a person is re-inserted when seen, so the oldest is first to go.
  const people = new Map<string, Person>();
  const groupTypes: string[] = [];
  const groups = new Map<string, Group>();

  const personFor = (distinctId: string, at: string): Person => {
    // No prototype: a property named "__proto__" or "constructor" from a client is just data.
    const person = people.get(distinctId) ?? {
      distinctId,
      properties: Object.create(null) as Record<string, unknown>,
      lastSeen: at,
      events: 0,
    };
    people.delete(distinctId);
    people.set(distinctId, person);
    person.lastSeen = at;
    if (people.size > MAX_PEOPLE) {
      const oldest = people.keys().next();
      if (oldest.done !== true) people.delete(oldest.value);
    }
    return person;
  };

  const identifyGroup = (event: ReceivedEvent): void => {
    const { $group_type: groupType, $group_key: groupKey, $group_set: groupSet } = event.properties;
    if (typeof groupType !== 'string' || groupType === '' || (typeof groupKey !== 'string' && typeof groupKey !== 'number')) return;
    if (!groupTypes.includes(groupType)) groupTypes.push(groupType);
    const key = `${groupType}\u0000${String(groupKey)}`;
    const group = groups.get(key) ?? {
      group_type_index: groupTypes.indexOf(groupType),
      group_key: String(groupKey),
      group_properties: {},
      created_at: event.timestamp ?? event.receivedAt,
    };
    // $group_set merges into what the group had, as on PostHog.
    if (isPlainObject(groupSet)) group.group_properties = { ...(group.group_properties as Record<string, unknown>), ...groupSet };
    groups.set(key, group);
  };

  return {
    observe(event) {
      // The SDKs send a group's identify with a made-up distinct id ($<type>_<key>): not a person.
      if (event.event === '$groupidentify') return identifyGroup(event);
      const person = personFor(event.distinct_id, event.receivedAt);
      person.events++;
      for (const setOnce of [event.$set_once, event.properties.$set_once]) {
        if (!isPlainObject(setOnce)) continue;
        for (const [key, value] of Object.entries(setOnce)) if (!(key in person.properties)) person.properties[key] = value;
      }
      for (const set of [event.$set, event.properties.$set]) {
        if (!isPlainObject(set)) continue;
        for (const [key, value] of Object.entries(set)) person.properties[key] = value;
      }
    },
    touch(distinctId, at) {
      personFor(distinctId, at);
    },
    personProperties: (distinctId) => people.get(distinctId)?.properties,
    groupProperties: (groupType, groupKey) =>
      groups.get(`${groupType}\u0000${groupKey}`)?.group_properties as Record<string, unknown> | undefined,
    groups: (groupTypeIndex) => [...groups.values()].filter((group) => group.group_type_index === groupTypeIndex),
    groupTypes: () => groupTypes,
    people(limit, offset = 0) {
      const recent = [...people.values()];
      const end = Math.max(0, recent.length - offset);
      return recent.slice(Math.max(0, end - limit), end).reverse();
    },
    personCount: () => people.size,
    groupCount: () => groups.size,
    reset() {
      people.clear();
      groups.clear();
      groupTypes.length = 0;
    },
  };
}
