/**
 * The mutable state behind the endpoints: a private copy of the fixtures, so PATCH and DELETE
 * change this server only and never the caller's objects.
 */
import type { ExplicitMember, ExportedAsset, Group, SessionRecording, SharingConfiguration, Subscription } from '../../api/types';
import type { ExportContentFixture, ManagementFixtures } from './fixtures';

/** Supplies the groups of one group type; `hogtail dev` builds them from `$groupidentify` events. */
export type GroupsSource = (groupTypeIndex: number) => readonly Group[] | Promise<readonly Group[]>;

export interface ManagementStore {
  /** By the member's user uuid, the key of the explicit member endpoints. */
  members: Map<string, ExplicitMember>;
  exports: Map<number, ExportedAsset>;
  exportContents: Map<string, ExportContentFixture>;
  recordings: Map<string, SessionRecording>;
  sharing: Map<string, SharingConfiguration>;
  subscriptions: Subscription[];
  groups: GroupsSource;
  nextExportId(): number;
}

export function createStore(fixtures: ManagementFixtures, groupsSource: GroupsSource | undefined): ManagementStore {
  const copy = structuredClone(fixtures);
  const exports = new Map(copy.exports.map((asset) => [asset.id, asset] as const));
  let lastExportId = Math.max(0, ...exports.keys());
  const fixtureGroups = copy.groups;
  return {
    members: new Map(copy.members.map((member) => [member.user.uuid, member] as const)),
    exports,
    exportContents: new Map(Object.entries(copy.exportContents ?? {})),
    recordings: new Map(copy.sessionRecordings.map((recording) => [recording.id, recording] as const)),
    sharing: new Map(Object.entries(copy.sharing ?? {})),
    subscriptions: copy.subscriptions,
    groups: groupsSource ?? ((typeIndex) => fixtureGroups.filter((group) => group.group_type_index === typeIndex)),
    nextExportId: () => ++lastExportId,
  };
}
