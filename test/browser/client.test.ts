// @vitest-environment happy-dom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createHogtail } from '../../src/browser/api/drop-in';
import { fakeFetch, tick } from './helpers';

// A project key per test: clients of earlier tests stay alive (their timers and decide answers can
// still write), and the key names the storage, so each test has storage no earlier client touches.
let KEY = 'phc_unit';
let tests = 0;
const init = (config: Record<string, unknown> = {}) => {
  const client = createHogtail();
  client.init(KEY, { api_host: 'https://collector.test', capture_pageview: false, flush_at: 1, ...config });
  return client;
};

describe('browser client', () => {
  beforeEach(() => {
    localStorage.clear();
    KEY = `phc_unit_${++tests}`;
  });

  it('sends events with page context, session, device id and uuid, gzip as text/plain with the query flag', async () => {
    const { sent, urls, fetch } = fakeFetch();
    const client = init();
    client.capture('clicked', { plan: 'pro' });
    await client.flush();
    expect(urls[0]).toBe('https://collector.test/batch/?compression=gzip-js');
    expect(fetch.mock.calls.find(([url]) => url.includes('/batch/'))![1]).toMatchObject({
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      keepalive: true,
    });
    const [event] = sent;
    expect(event!.event).toBe('clicked');
    expect(event!.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
    expect(event!.properties).toMatchObject({
      plan: 'pro',
      distinct_id: client.get_distinct_id(),
      $device_id: client.get_distinct_id(),
      $session_id: client.get_session_id(),
      $current_url: location.href,
      $host: location.host,
      $pathname: location.pathname,
      $referrer: '$direct',
      $lib: 'hogtail-web',
      $process_person_profile: false,
    });
    // happy-dom's user agent names no known browser, so $browser is not checked here (user-agent.test.ts does).
    for (const key of ['$screen_height', '$screen_width', '$viewport_height', '$viewport_width', '$os', '$device_type', '$lib_version']) {
      expect(event!.properties).toHaveProperty(key);
    }
  });

  it('identify links the anonymous id once, then events are identified and carry super properties', async () => {
    const { sent } = fakeFetch();
    const client = init();
    const anonymous = client.get_distinct_id();
    client.register({ app: 'web' });
    client.identify('user-1', { email: 'a@b.c' });
    client.identify('user-1');
    client.capture('after');
    await client.flush();
    expect(sent.map((e) => e.event)).toEqual(['$identify', 'after']);
    expect(sent[0]!.properties).toMatchObject({ distinct_id: 'user-1', $anon_distinct_id: anonymous, $set: { email: 'a@b.c' } });
    expect(sent[0]!.properties.$process_person_profile).toBe(true);
    expect(sent[1]!.properties).toMatchObject({ distinct_id: 'user-1', app: 'web' });
    expect(sent[1]!.properties.$process_person_profile).toBe(true);
  });

  it('the caller’s properties win over super properties and page context', async () => {
    const { sent } = fakeFetch();
    const client = init();
    client.register({ plan: 'free' });
    client.capture('x', { plan: 'pro', $current_url: 'https://override.test/' });
    await client.flush();
    expect(sent[0]!.properties).toMatchObject({ plan: 'pro', $current_url: 'https://override.test/' });
  });

  it('a change of identity or super properties within one task reaches the next event of that task', async () => {
    const { sent } = fakeFetch();
    const client = init();
    client.capture('a');
    client.register({ x: 1 });
    client.capture('b');
    client.identify('user-9');
    client.capture('c');
    await client.flush();
    expect(sent.map((e) => [e.event, e.properties.x, e.properties.distinct_id === 'user-9'])).toEqual([
      ['a', undefined, false],
      ['b', 1, false],
      ['$identify', 1, true],
      ['c', 1, true],
    ]);
  });

  it('identity and super properties persist across page loads; reset starts a new anonymous user', async () => {
    fakeFetch();
    // Three "pages" in one window, but the earlier ones never unload here: without decide, none of
    // them can still be writing its state (its flags answer) after the next page started.
    const page = () => init({ advanced_disable_decide: true });
    const first = page();
    first.identify('user-2');
    first.register({ team: 'a' });
    await first.flush();
    const second = page();
    expect(second.get_distinct_id()).toBe('user-2');
    second.reset();
    expect(second.get_distinct_id()).not.toBe('user-2');
    await tick(); // a new page starts in a later task; state is written at the end of this one
    const third = page();
    expect(third.get_distinct_id()).toBe(second.get_distinct_id());
  });

  it('group sets $groups on later events and sends $groupidentify with properties', async () => {
    const { sent } = fakeFetch();
    const client = init();
    client.group('company', 'acme', { name: 'Acme' });
    client.capture('in group');
    await client.flush();
    expect(sent[0]).toMatchObject({
      event: '$groupidentify',
      properties: { $group_type: 'company', $group_key: 'acme', $group_set: { name: 'Acme' } },
    });
    expect(sent[1]!.properties.$groups).toEqual({ company: 'acme' });
  });

  it('person_profiles always and never', async () => {
    const { sent } = fakeFetch();
    const always = init({ person_profiles: 'always' });
    always.capture('a');
    await always.flush();
    expect(sent[0]!.properties.$process_person_profile).toBe(true);
    localStorage.clear();
    const never = init({ person_profiles: 'never' });
    const errors: string[] = [];
    never.on('error', (error) => errors.push(error.message));
    never.identify('someone');
    never.capture('b');
    await never.flush();
    expect(sent[1]!.properties.$process_person_profile).toBe(false);
    expect(sent[1]!.properties.distinct_id).not.toBe('someone');
    expect(errors[0]).toMatch(/person_profiles: 'never'/);
  });

  it('opt-out drops and persists; opt-in resumes', async () => {
    const { sent } = fakeFetch();
    // A key of its own: clients left by earlier tests (same window, same key) may still save their
    // state when their late decide answers arrive, which would overwrite this one's.
    const initOwn = () => {
      const own = createHogtail();
      own.init('phc_optout', { api_host: 'https://collector.test', capture_pageview: false, flush_at: 1 });
      return own;
    };
    const client = initOwn();
    client.opt_out_capturing();
    client.capture('dropped');
    expect(client.has_opted_out_capturing()).toBe(true);
    await tick();
    expect(initOwn().has_opted_out_capturing()).toBe(true);
    client.opt_in_capturing();
    client.capture('kept');
    await client.flush();
    expect(sent.map((e) => e.event)).toEqual(['$opt_in', 'kept']);
    expect(client.stats().dropped).toEqual({ opted_out: 1 });
  });

  it('calls made before init() run at init, in order, after `loaded` and before the first $pageview (as posthog-js replays its snippet)', async () => {
    const { sent } = fakeFetch();
    const client = createHogtail();
    client.capture('one');
    client.identify('early-user');
    client.capture('two');
    client.init(KEY, {
      api_host: 'https://collector.test',
      capture_pageview: true,
      flush_at: 1,
      loaded: (loaded) => loaded.capture('loaded'),
    });
    await client.flush();
    expect(sent.map((e) => e.event)).toEqual(['loaded', 'one', '$identify', 'two', '$pageview']);
    expect(sent[4]!.properties.distinct_id).toBe('early-user');
  });

  it('a reset() before init() (a child effect before the provider’s) runs before the first $pageview, which lands on the new id', async () => {
    const { sent } = fakeFetch();
    const client = createHogtail();
    client.capture('before reset');
    client.reset();
    client.init(KEY, { api_host: 'https://collector.test', capture_pageview: true, flush_at: 1 });
    await client.flush();
    expect(sent.map((e) => e.event)).toEqual(['before reset', '$pageview']);
    expect(sent[1]!.properties.distinct_id).toBe(client.get_distinct_id());
    expect(sent[0]!.properties.distinct_id).not.toBe(client.get_distinct_id());
  });

  it('bad input never throws and is reported; a personal key is refused', () => {
    fakeFetch();
    const client = init();
    const errors: string[] = [];
    client.on('error', (error) => errors.push(error.name));
    expect(() => client.capture('' as string)).not.toThrow();
    expect(() => client.capture('x', 'not an object' as never)).not.toThrow();
    expect(() => client.identify(undefined as never)).not.toThrow();
    expect(() => client.group(undefined as never, undefined as never)).not.toThrow();
    expect(errors).toEqual(['InvalidEventError', 'InvalidEventError', 'InvalidEventError', 'InvalidEventError']);
    const refused = createHogtail();
    const original = console.error;
    console.error = () => {};
    // init() returns the instance as posthog-js's does; refused, it stays unloaded.
    expect(refused.init('phx_personal', {})).toBe(refused);
    expect(refused.__loaded).toBe(false);
    console.error = original;
  });

  it('history_change captures a $pageview per new path', async () => {
    const { sent } = fakeFetch();
    const client = init({ capture_pageview: 'history_change' });
    history.pushState({}, '', '/products');
    history.replaceState({}, '', '/products');
    history.pushState({}, '', '/cart');
    await tick();
    await client.flush();
    expect(sent.filter((e) => e.event === '$pageview').map((e) => e.properties.$pathname)).toEqual(['/', '/products', '/cart']);
  });

  it('an event is in localStorage before its request starts (else a second after capture, or at pagehide), and leaves it after a 2xx', async () => {
    let status = 503;
    const { fetch } = fakeFetch(() => status);
    const client = init({ flush_at: 1000 });
    const stored = () =>
      Object.keys(localStorage)
        .filter((key) => key.startsWith(`ht|${KEY}|q|`))
        .map((key) => localStorage.getItem(key))
        .join('\n');
    client.capture('durable');
    void client.flush();
    await vi.waitFor(() => expect(fetch.mock.calls.some(([url]) => url.includes('/batch/'))).toBe(true));
    expect(stored()).toContain('"event":"durable"');
    status = 200;
    await client.flush();
    expect(stored()).toBe('');
  });
});
