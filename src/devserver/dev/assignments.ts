/** The last flags decide gave each distinct id, for the page's "what each user got" panel. */
import { createLru } from '../../core/lru';
import type { FlagValue } from '../flags';

export interface Assignment {
  distinctId: string;
  at: string;
  featureFlags: Record<string, FlagValue>;
  /** The request's overrides, when it sent any, since they explain an unexpected value. */
  overrides: Record<string, unknown>;
}

export interface AssignmentLog {
  record(assignment: Assignment): void;
  get(distinctId: string): Assignment | undefined;
  count(): number;
}

/** Bounded, least recently answered (or looked up) dropped first: a load test must not grow it without end. */
export function createAssignmentLog(limit = 10_000): AssignmentLog {
  const byId = createLru<string, Assignment>(limit);
  return {
    record: (assignment) => byId.set(assignment.distinctId, assignment),
    get: (distinctId) => byId.get(distinctId),
    count: () => byId.size,
  };
}
