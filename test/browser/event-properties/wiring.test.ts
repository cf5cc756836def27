// @vitest-environment happy-dom
// The visit properties on the client's events (event-properties/index.ts, capture.ts): when
// `$set_once` carries the first page and the session's, what a later page and a reset() see, and
// what a new session changes. Events are read in before_send and dropped there, so nothing is sent.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHogtail } from '../../../src/browser/api/drop-in';
import type { CaptureResult } from '../../../src/browser/types';

let KEY = 'phc_wiring';
let tests = 0;

function start(config: Record<string, unknown> = {}) {
  const seen: CaptureResult[] = [];
  const client = createHogtail();
  client.init(KEY, {
    api_host: 'https://collector.test',
    capture_pageview: false,
    advanced_disable_flags: true,
    before_send: (event) => (event && seen.push(event), null),
    ...config,
  });
  const last = (name: string) => seen.filter((event) => event.event === name).at(-1)!.properties;
  return { client, seen, last };
}

describe('visit properties on the client’s events', () => {
  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
    KEY = `phc_wiring_${++tests}`;
    history.replaceState({}, '', '/landing?utm_source=mail&gclid=g1');
  });
  afterEach(() => vi.restoreAllMocks());

  it('$set_once: the first event of a page that processes the person, then only $identify; 62 keys', () => {
    const { client, last } = start({ person_profiles: 'always' });
    client.capture('first');
    client.capture('second');
    client.identify('user-1', {}, { plan: 'pro' });
    const setOnce = last('first').$set_once;
    expect(Object.keys(setOnce)).toHaveLength(62);
    expect(setOnce).toMatchObject({
      $initial_utm_source: 'mail',
      $initial_gclid: 'g1',
      $initial_pathname: '/landing',
      utm_source: 'mail',
      $pathname: '/landing',
    });
    expect(last('second').$set_once).toBeUndefined();
    // The caller's own $set_once wins, merged with the first pages.
    expect(last('$identify').$set_once).toMatchObject({ plan: 'pro', $initial_utm_source: 'mail' });
  });

  it('identified_only: anonymous events carry none; $identify does, and registers $user_id; $is_identified follows', () => {
    const { client, last } = start();
    client.capture('anonymous');
    expect(last('anonymous')).toMatchObject({ $process_person_profile: false, $is_identified: false });
    expect(last('anonymous').$set_once).toBeUndefined();
    client.identify('user-2');
    client.capture('known');
    expect(last('$identify').$set_once).toMatchObject({ $initial_gclid: 'g1' });
    expect(last('known')).toMatchObject({ $process_person_profile: true, $is_identified: true, $user_id: 'user-2' });
  });

  it('the first page outlives the page (a later page still names it); reset() forgets it', async () => {
    start().client.capture('on landing');
    await new Promise((resolve) => setTimeout(resolve)); // the state is written at the end of the task
    history.replaceState({}, '', '/pricing');
    const later = start({ person_profiles: 'always' });
    later.client.capture('on pricing');
    expect(later.last('on pricing').$set_once).toMatchObject({ $initial_pathname: '/landing', $initial_utm_source: 'mail' });
    later.client.reset();
    later.client.identify('user-3');
    expect(later.last('$identify').$set_once).toMatchObject({ $initial_pathname: '/pricing', $initial_utm_source: null });
  });

  it('a new session (after 30 idle minutes) has its own entry page and window id; the tab keeps its campaign', () => {
    const { client, last } = start();
    client.capture('before');
    const before = last('before');
    history.replaceState({}, '', '/later');
    const now = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(now + 31 * 60_000);
    client.capture('after');
    const after = last('after');
    expect(after.$session_id).not.toBe(before.$session_id);
    expect(after.$window_id).not.toBe(before.$window_id);
    expect([before.$session_entry_pathname, after.$session_entry_pathname]).toEqual(['/landing', '/later']);
    expect(after.$session_entry_utm_source).toBeUndefined();
    expect(after.utm_source).toBe('mail');
  });

  it('persistence: memory keeps nothing in sessionStorage', () => {
    start({ persistence: 'memory' }).client.capture('x');
    expect(Object.keys(sessionStorage).filter((key) => key.startsWith(`ht|${KEY}|`))).toEqual([]);
  });
});
