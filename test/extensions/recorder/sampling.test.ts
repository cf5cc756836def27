// Session replay's sampling is posthog-js's (issue #24): for the same session id and sample rate,
// hogtail keeps exactly the sessions posthog-js keeps. Checked against the function in posthog-js's
// own package (loaded from node_modules, not copied), over UUIDv7 session ids as both SDKs make
// them, ids that differ only in their last characters, and the rates projects set.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { sampledIn } from '../../../src/extensions/recorder/gates';
import { uuidv7 } from '../../../src/core/uuid';
import { repoRoot } from '../../support/built';

const posthogSampling = createRequire(import.meta.url)(repoRoot + 'node_modules/posthog-js/lib/src/extensions/sampling.js') as {
  sampleOnProperty(value: string, percent: number): boolean;
};

const RATES = [0, 0.01, 0.1, 0.25, 0.29, 0.33, 0.5, 0.57, 0.7, 0.99, 1];

describe('session replay sampling', () => {
  const ids = [
    ...Array.from({ length: 1_000 }, () => uuidv7()),
    ...Array.from({ length: 500 }, (_, i) => `0190f0e0-0000-7000-8000-${String(i).padStart(12, '0')}`),
    '',
    'not-a-uuid',
  ];

  it('keeps exactly the sessions posthog-js keeps, at every rate', () => {
    for (const rate of RATES) {
      const differing = ids.filter((id) => sampledIn(id, rate) !== posthogSampling.sampleOnProperty(id, rate));
      expect({ rate, differing }).toEqual({ rate, differing: [] });
    }
  });

  it('keeps about the share the rate asks for, none at 0 and all at 1', () => {
    const kept = ids.filter((id) => sampledIn(id, 0.25)).length;
    expect(kept).toBeGreaterThan(ids.length * 0.2);
    expect(kept).toBeLessThan(ids.length * 0.3);
    expect(ids.some((id) => sampledIn(id, 0))).toBe(false);
    expect(ids.every((id) => sampledIn(id, 1))).toBe(true);
  });
});
