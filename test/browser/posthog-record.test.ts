// What hogtail takes from posthog-js's record of a visitor (persistence/posthog-record.ts): beyond
// the identity and session, the app's super properties (none of posthog-js's own keys), the
// groups, the first page and the session's first page.
import { describe, expect, it } from 'vitest';
import { visitFromPosthog } from '../../src/browser/persistence/posthog-record';

// A record as posthog-js 1.449 writes it (localStorage and its sessionStorage twin, merged).
const record = {
  distinct_id: 'anon-1',
  $device_id: 'anon-1',
  $user_state: 'anonymous',
  $sesid: [1_700_000_000_000, 'session-1', 1_699_999_990_000],
  $epp: true,
  plan: 'pro',
  theme: { dark: true },
  $user_id: 'user-1',
  $groups: { company: 'acme' },
  $initial_person_info: { r: 'https://news.test/', u: 'https://shop.test/?utm_source=mail' },
  $client_session_props: { sessionId: 'session-1', props: { r: '$direct', u: 'https://shop.test/pricing' } },
  $initialization_time: '2026-11-29T00:00:00.000Z',
  $configured_session_timeout_ms: 1_800_000,
  $enabled_feature_flags: { beta: true },
  $active_feature_flags: ['beta'],
  __alias: 'someone',
  __timers: {},
  // its per-tab campaign and referrer (sessionStorage)
  utm_source: 'mail',
  gclid: null,
  $referrer: 'https://news.test/',
  $search_engine: 'google',
  ph_keyword: 'shoes',
};

describe("a posthog-js visitor's record", () => {
  it("super properties: what the app registered and $user_id, none of posthog-js's own keys or its per-tab campaign", () => {
    expect(visitFromPosthog(record)?.props).toEqual({ plan: 'pro', theme: { dark: true }, $user_id: 'user-1' });
  });

  it('groups, the first page and the session entry, with the identity and session as before', () => {
    expect(visitFromPosthog(record)).toMatchObject({
      distinct_id: 'anon-1',
      sid: ['session-1', 1_700_000_000_000, 1_699_999_990_000],
      $epp: true,
      $groups: { company: 'acme' },
      ipi: { r: 'https://news.test/', u: 'https://shop.test/?utm_source=mail' },
      se: ['session-1', { r: '$direct', u: 'https://shop.test/pricing' }],
    });
  });

  it('what is not in the shape posthog-js writes is left out', () => {
    const odd = visitFromPosthog({ ...record, $groups: { company: 7 }, $initial_person_info: 'x', $client_session_props: { props: {} } });
    expect(odd).not.toHaveProperty('$groups');
    expect(odd).not.toHaveProperty('ipi');
    expect(odd).not.toHaveProperty('se');
    expect(visitFromPosthog({ plan: 'pro' })).toBeUndefined();
  });
});
