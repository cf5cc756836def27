/**
 * Seeded data for the management endpoints. Deterministic (no clock, no randomness) so tests can
 * name rows, and plentiful so every list spans several pages at the default page size.
 */
import type {
  ExplicitMember,
  ExportedAsset,
  Group,
  Person,
  SessionRecording,
  SharingConfiguration,
  Subscription,
  User,
} from '../../api/types';

export interface ExportContentFixture {
  contentType: string;
  body: string;
  /** How `body` is written. Default 'utf8'. */
  encoding?: 'utf8' | 'base64';
}

/** What the management server serves. Also the shape of the `hogtail dev` fixtures file. */
export interface ManagementFixtures {
  members: ExplicitMember[];
  exports: ExportedAsset[];
  /** Content by export id; an export without an entry gets content rendered from its format. */
  exportContents?: Record<string, ExportContentFixture>;
  sessionRecordings: SessionRecording[];
  /** Sharing configuration by recording id; a recording without one gets a disabled default. */
  sharing?: Record<string, SharingConfiguration>;
  subscriptions: Subscription[];
  groups: Group[];
}

export interface SeedCounts {
  members?: number;
  exports?: number;
  sessionRecordings?: number;
  subscriptions?: number;
  /** Groups per group type index: [organizations, projects, …]. */
  groupsPerType?: number[];
}

export const SEED_COUNTS = {
  members: 6,
  exports: 57,
  sessionRecordings: 123,
  subscriptions: 45,
  groupsPerType: [250, 40],
} as const;

const EPOCH = Date.UTC(2024, 0, 1);
const FORMATS = ['text/csv', 'image/png', 'application/pdf'] as const;
const EXTENSIONS: Record<string, string> = { 'text/csv': 'csv', 'image/png': 'png', 'application/pdf': 'pdf' };

/** A UUID-shaped id unique per (kind, index), so ids of different resources never collide. */
export function seedUuid(kind: number, index: number): string {
  const hex = index.toString(16).padStart(12, '0');
  return `0000000${kind}-0000-4000-8000-${hex}`;
}

function at(minutes: number): string {
  return new Date(EPOCH + minutes * 60_000).toISOString();
}

export function seedUser(index: number): User {
  const names = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Frances', 'Ken'];
  const first = names[index % names.length] ?? 'Dev';
  return {
    id: index + 1,
    uuid: seedUuid(1, index + 1),
    distinct_id: `user-${index + 1}`,
    first_name: first,
    last_name: `Tester${index + 1}`,
    email: `${first.toLowerCase()}${index + 1}@example.com`,
    is_email_verified: index % 3 !== 2,
    hedgehog_config: index % 2 === 0 ? { use_as_profile: true, color: 'green' } : {},
    role_at_organization: index % 2 === 0 ? 'engineering' : 'product',
  };
}

function seedPerson(index: number): Person {
  return {
    id: index + 1,
    name: `person${index + 1}@example.com`,
    distinct_ids: `visitor-${index + 1}`,
    properties: { email: `person${index + 1}@example.com`, plan: index % 4 === 0 ? 'scale' : 'free' },
    created_at: at(index * 7),
    uuid: seedUuid(5, index + 1),
  };
}

/** The `i`th seeded session recording: durations, counts and pages spread by small primes. */
function seedRecording(i: number): SessionRecording {
  const duration = 30 + ((i * 37) % 900);
  const active = Math.round(duration * 0.6);
  return {
    id: seedUuid(4, i + 1),
    distinct_id: `visitor-${(i % 40) + 1}`,
    viewed: i % 5 === 0,
    recording_duration: duration,
    active_seconds: active,
    inactive_seconds: duration - active,
    start_time: at(2 * 24 * 60 + i * 11),
    end_time: new Date(EPOCH + (2 * 24 * 60 + i * 11) * 60_000 + duration * 1000).toISOString(),
    click_count: (i * 7) % 50,
    keypress_count: (i * 13) % 80,
    mouse_activity_count: (i * 17) % 300,
    console_log_count: i % 9,
    console_warn_count: i % 4,
    console_error_count: i % 3 === 0 ? 1 : 0,
    start_url: `https://shop.example.com/${['', 'pricing', 'docs', 'checkout'][i % 4] ?? ''}`,
    person: seedPerson(i % 40),
    storage: i % 2 === 0 ? 'object_storage' : 'object_storage_lts',
    snapshot_source: i % 6 === 0 ? 'mobile' : 'web',
    ongoing: i === 0,
    activity_score: Math.round(((i * 29) % 100) * 1.5) / 10,
  };
}

export function createSeedFixtures(counts: SeedCounts = {}): ManagementFixtures {
  const memberCount = counts.members ?? SEED_COUNTS.members;
  const exportCount = counts.exports ?? SEED_COUNTS.exports;
  const recordingCount = counts.sessionRecordings ?? SEED_COUNTS.sessionRecordings;
  const subscriptionCount = counts.subscriptions ?? SEED_COUNTS.subscriptions;
  const groupsPerType = counts.groupsPerType ?? SEED_COUNTS.groupsPerType;

  const members = Array.from({ length: memberCount }, (_, i): ExplicitMember => {
    const user = seedUser(i);
    return {
      id: seedUuid(2, i + 1),
      level: i === 0 ? 8 : 1,
      parent_level: i === 0 ? 15 : 1,
      parent_membership_id: seedUuid(3, i + 1),
      joined_at: at(i * 60),
      updated_at: at(i * 60 + 5),
      user,
      user_uuid: user.uuid,
      effective_level: i === 0 ? 15 : 1,
    };
  });

  const exports = Array.from({ length: exportCount }, (_, i): ExportedAsset => {
    const id = i + 1;
    const format = FORMATS[i % FORMATS.length] ?? 'text/csv';
    return {
      id,
      dashboard: 100 + (i % 5),
      insight: 1000 + i,
      export_format: format,
      created_at: at(24 * 60 + i * 30),
      has_content: 'true',
      export_context: i % 4 === 0 ? null : { path: `/api/environments/1/insights/${1000 + i}/` },
      filename: `export-${id}.${EXTENSIONS[format] ?? 'bin'}`,
      expires_after: at(24 * 60 * 30 + i * 30),
    };
  });

  const recordings = Array.from({ length: recordingCount }, (_, i) => seedRecording(i));

  const subscriptions = Array.from(
    { length: subscriptionCount },
    (_, i): Subscription => ({
      id: i + 1,
      dashboard: 100 + (i % 5),
      insight: 1000 + i,
      target_type: i % 3 === 0 ? 'slack' : 'email',
      target_value: i % 3 === 0 ? `C0${i}CHANNEL` : `team${i % 4}@example.com`,
      frequency: ['daily', 'weekly', 'monthly'][i % 3] ?? 'weekly',
      interval: 1 + (i % 2),
      byweekday: i % 3 === 1 ? ['monday', 'thursday'] : [],
      bysetpos: 1,
      count: 0,
      start_date: at(i * 90),
      until_date: at(24 * 60 * 365 + i * 90),
      created_at: at(i * 90),
      created_by: seedUser(i % Math.max(1, memberCount)),
      deleted: false,
      title: `Weekly numbers ${i + 1}`,
      summary: `sent ${['daily', 'weekly', 'monthly'][i % 3] ?? 'weekly'}`,
      next_delivery_date: at(24 * 60 * 400 + i * 90),
      invite_message: i % 2 === 0 ? 'Here are the numbers' : '',
    }),
  );

  const groups: Group[] = [];
  groupsPerType.forEach((count, typeIndex) => {
    for (let i = 0; i < count; i++) {
      const key = typeIndex === 0 ? `org-${String(i + 1).padStart(3, '0')}` : `type${typeIndex}-${i + 1}`;
      groups.push({
        group_type_index: typeIndex,
        group_key: key,
        group_properties: { name: typeIndex === 0 ? `Organization ${i + 1}` : `Group ${typeIndex}/${i + 1}`, seats: i % 17 },
        // Ten groups share each timestamp, so cursor pages must break ties to avoid gaps.
        created_at: at(Math.floor(i / 10) * 15 + typeIndex),
      });
    }
  });

  return { members, exports, sessionRecordings: recordings, subscriptions, groups };
}
