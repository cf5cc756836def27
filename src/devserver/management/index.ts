/** The management API endpoints for tests and `hogtail dev`: a mountable handler and a standalone server. */
export { createManagementServer, type ManagementServer, type ManagementServerOptions } from './server';
export {
  createManagementHandler,
  type ManagementHandler,
  type ManagementHandlerOptions,
  type RecordedRequest,
} from './handler';
export { DEFAULT_KEYS, DEV_PERSONAL_API_KEY, type KeyScopes } from './auth';
export type { ManagementFaults } from './faults';
export { createSeedFixtures, SEED_COUNTS, seedUuid, type ExportContentFixture, type ManagementFixtures, type SeedCounts } from './fixtures';
export type { GroupsSource } from './store';
