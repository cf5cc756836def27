/**
 * Loading `hogtail dev --fixtures FILE`: management API data from a JSON file over the seed fixtures.
 */
import { readFileSync } from 'node:fs';
import { describeType, isPlainObject } from '../ingest/json-shape';
import { createSeedFixtures, type ManagementFixtures } from '../management';

const LIST_KEYS = ['members', 'exports', 'sessionRecordings', 'subscriptions', 'groups'] as const;
const MAP_KEYS = ['exportContents', 'sharing'] as const;

/**
 * Reads a fixtures file for the management endpoints. Any list the file leaves out comes from the
 * seed fixtures, so a file that only sets up subscriptions still serves members and exports.
 * Throws with the file name and the offending key.
 */
export function loadFixturesFile(file: string): ManagementFixtures {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`fixtures file ${file}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  if (!isPlainObject(parsed)) throw new Error(`fixtures file ${file}: expected an object, got ${describeType(parsed)}`);
  for (const key of LIST_KEYS) {
    if (parsed[key] !== undefined && !Array.isArray(parsed[key])) throw new Error(`fixtures file ${file}: ${key} must be a list`);
  }
  for (const key of MAP_KEYS) {
    if (parsed[key] !== undefined && !isPlainObject(parsed[key])) throw new Error(`fixtures file ${file}: ${key} must be an object`);
  }
  return { ...createSeedFixtures(), ...(parsed as Partial<ManagementFixtures>) };
}
