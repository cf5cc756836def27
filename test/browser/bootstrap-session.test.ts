// @vitest-environment happy-dom
// bootstrap.sessionID (state/bootstrap-session.ts): posthog-js's rules for a session id handed in at
// init: a UUIDv7 (its start time is in it), not more than a minute in the future; anything else
// leaves the session alone and says why.
import { describe, expect, it } from 'vitest';
import { bootstrapSession } from '../../src/browser/state/bootstrap-session';
import { createStateStore } from '../../src/browser/state/state';

const NOW = Date.UTC(2026, 10, 29, 9, 0);
const v7 = (ms: number) => {
  const hex = ms.toString(16).padStart(12, '0') + '7000800000000000000a';
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

describe('bootstrap.sessionID', () => {
  it('a UUIDv7 becomes the session, alive from now, started when the id was made', () => {
    const states = createStateStore(undefined, 'k', 'phc_boot', undefined);
    const id = v7(NOW - 3_600_000);
    expect(bootstrapSession(states, id, NOW)).toBeUndefined();
    expect(states.state_.sid).toEqual([id, NOW, NOW - 3_600_000]);
    expect(states.session_(NOW + 1_000)).toBe(id);
  });

  it('up to a minute ahead is clock skew; further ahead, another UUID version or no UUID is refused and the session kept', () => {
    const states = createStateStore(undefined, 'k', 'phc_boot', undefined);
    const own = states.session_(NOW);
    expect(bootstrapSession(states, v7(NOW + 59_000), NOW)).toBeUndefined();
    states.state_.sid = [own, NOW, NOW];
    expect(bootstrapSession(states, v7(NOW + 61_000), NOW)).toBe('is in the future');
    expect(bootstrapSession(states, '0193a1b2-c3d4-4e5f-8a6b-7c8d9e0f1a2b', NOW)).toBe('is not a UUIDv7');
    expect(bootstrapSession(states, 'session-1', NOW)).toBe('is not a UUIDv7');
    expect(states.state_.sid![0]).toBe(own);
  });
});
