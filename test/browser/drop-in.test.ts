// @vitest-environment happy-dom
// posthog-js drop-in (issue 13): the methods and options a page written for posthog-js uses.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHogtail } from '../../src/browser/api/drop-in';
import type { HogtailConfig } from '../../src/browser/hogtail';
import { fakeFetch } from './helpers';

let KEY = 'phc_dropin';
let tests = 0;
const init = (config: HogtailConfig = {}) => {
  const client = createHogtail();
  client.on('error', () => {});
  return client.init(KEY, { api_host: 'https://collector.test', capture_pageview: false, flush_at: 1, ...config });
};

describe('posthog-js drop-in', () => {
  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
    KEY = `phc_dropin_${++tests}`;
    // happy-dom's sendBeacon really fetches (to collector.test here) and leaves the rejection
    // unhandled, failing the run; this answers as it does (true) without the network.
    vi.spyOn(navigator, 'sendBeacon').mockReturnValue(true);
  });
  afterEach(() => vi.restoreAllMocks());

  it('init() returns the instance, __loaded says so, capture() returns the event or undefined when dropped', async () => {
    const { sent } = fakeFetch();
    const client = init();
    expect(client.__loaded).toBe(true);
    const result = client.capture('bought', { plan: 'pro' });
    expect(result).toMatchObject({ event: 'bought', properties: { plan: 'pro', distinct_id: client.get_distinct_id() } });
    expect(result!.timestamp).toBeInstanceOf(Date);
    expect(client.capture('')).toBeUndefined();
    await client.flush();
    expect(sent[0]!.uuid).toBe(result!.uuid);
  });

  it('send_instantly sends without waiting for a batch', async () => {
    const { sent } = fakeFetch();
    const client = init({ flush_at: 100, flush_interval: 600_000 });
    client.capture('now', {}, { send_instantly: true });
    await vi.waitFor(() => expect(sent.map((e) => e.event)).toEqual(['now']));
  });

  it('group() sends $groupidentify the first time a group is set, with or without properties', async () => {
    const { sent } = fakeFetch();
    const client = init();
    client.group('company', 'acme');
    client.group('company', 'acme');
    client.group('company', 'acme', { name: 'Acme' });
    expect(client.getGroups()).toEqual({ company: 'acme' });
    client.resetGroups();
    expect(client.getGroups()).toEqual({});
    await client.flush();
    expect(sent.filter((e) => e.event === '$groupidentify').map((e) => e.properties.$group_set)).toEqual([{}, { name: 'Acme' }]);
  });

  it('before_send (function or array) changes or drops events; drops are counted as before_send', async () => {
    const { sent } = fakeFetch();
    const client = init({
      before_send: [
        (event) => (event?.event === 'secret' ? null : event),
        (event) => event && { ...event, properties: { ...event.properties, tagged: true } },
      ],
      property_denylist: ['email'],
      sanitize_properties: (properties) => ({ ...properties, token: '[redacted]' }),
    });
    expect(client.capture('secret')).toBeUndefined();
    client.capture('visible', { email: 'a@b.c', token: 'abc' });
    await client.flush();
    expect(sent.map((e) => e.event)).toEqual(['visible']);
    expect(sent[0]!.properties).toMatchObject({ tagged: true, token: '[redacted]' });
    expect(sent[0]!.properties.email).toBeUndefined();
    expect(client.stats().dropped.before_send).toBe(1);
  });

  it('an unknown or unsupported option warns once, by name', () => {
    fakeFetch();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const client = init({ api_hots: 'x', opt_in_site_apps: true, enable_heatmaps: false, disable_surveys: true } as HogtailConfig);
    client.set_config({ api_hots: 'y' } as HogtailConfig);
    const lines = warn.mock.calls.map(([line]) => String(line));
    expect(lines.filter((line) => line.includes('"api_hots"'))).toHaveLength(1);
    expect(lines.filter((line) => line.includes('"opt_in_site_apps"'))).toHaveLength(1);
    // Heatmaps are an extension now: its option is acted on, not warned about.
    expect(lines.some((line) => line.includes('enable_heatmaps'))).toBe(false);
    expect(lines.some((line) => line.includes('disable_surveys'))).toBe(false);
  });

  it('methods for products hogtail does not have never throw, return posthog-js empty values, warn once per product', async () => {
    fakeFetch();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const client = init();
    const surveys = vi.fn();
    client.getSurveys(surveys);
    expect(surveys).toHaveBeenCalledWith([], expect.anything());
    expect(client.loadToolbar({})).toBe(false);
    expect(typeof client.onSurveysLoaded(() => {})).toBe('function');
    await expect(client.canRenderSurveyAsync('s')).resolves.toMatchObject({ visible: false });
    const lines = warn.mock.calls.map(([line]) => String(line));
    expect(lines.filter((line) => line.includes('surveys'))).toHaveLength(1);
  });

  it('properties: get_property, register_for_session, people.set, unsetPersonProperties, onSessionId', async () => {
    const { sent } = fakeFetch();
    const client = init();
    client.register({ plan: 'pro' });
    client.register_for_session({ tab: 'a' });
    expect(client.get_property('plan')).toBe('pro');
    expect(client.get_property('distinct_id')).toBe(client.get_distinct_id());
    expect(client.getSessionProperty('tab')).toBe('a');
    const sessions: string[] = [];
    client.onSessionId((id) => sessions.push(id));
    expect(sessions).toEqual([client.get_session_id()]);
    client.people.set('email', 'a@b.c');
    client.unsetPersonProperties('old');
    client.capture('x');
    client.unregister_for_session('tab');
    client.capture('y');
    await client.flush();
    expect(sent.map((e) => e.event)).toEqual(['$set', '$set', 'x', 'y']);
    expect(sent[0]!.properties.$set).toEqual({ email: 'a@b.c' });
    expect(sent[1]!.properties.$unset).toEqual(['old']);
    expect(sent[2]!.properties.tab).toBe('a');
    expect(sent[3]!.properties.tab).toBeUndefined();
  });

  it('consent: opt_out_capturing_by_default, explicit status, clear; respect_dnt', async () => {
    const { sent } = fakeFetch();
    const client = init({ opt_out_capturing_by_default: true });
    expect(client.get_explicit_consent_status()).toBe('pending');
    expect(client.has_opted_out_capturing()).toBe(true);
    client.capture('dropped');
    client.opt_in_capturing();
    expect([client.get_explicit_consent_status(), client.has_opted_in_capturing(), client.is_capturing()]).toEqual(['granted', true, true]);
    client.clear_opt_in_out_capturing();
    expect(client.has_opted_out_capturing()).toBe(true);
    await client.flush();
    expect(sent.map((e) => e.event)).toEqual(['$opt_in']);
    expect(client.stats().dropped.opted_out).toBe(1);

    Object.defineProperty(navigator, 'doNotTrack', { value: '1', configurable: true });
    try {
      KEY = `phc_dropin_${++tests}`;
      expect(init({ respect_dnt: true }).has_opted_out_capturing()).toBe(true);
    } finally {
      delete (navigator as { doNotTrack?: string }).doNotTrack;
    }
  });

  it('opt_out_persistence_by_default: nothing is stored while opted out, and what was stored goes at opt-out', async () => {
    fakeFetch();
    // Identity and session are written in a microtask after they change: awaited before each look.
    const stored = async () => {
      await Promise.resolve();
      return [localStorage.getItem(`ht|${KEY}|p`) !== null, document.cookie.includes(`ph_${KEY}_posthog`)];
    };
    const client = init({ opt_out_persistence_by_default: true, opt_out_capturing_by_default: true });
    client.register({ plan: 'pro' });
    expect(await stored()).toEqual([false, false]);
    client.opt_in_capturing();
    expect(await stored()).toEqual([true, true]);
    const id = client.get_distinct_id();
    client.opt_out_capturing();
    expect(await stored()).toEqual([false, false]);
    client.register({ plan: 'team' });
    client.capture('refused');
    expect(await stored()).toEqual([false, false]);
    // The identity lives on in memory, and is written again on consent.
    client.opt_in_capturing();
    expect(client.get_distinct_id()).toBe(id);
    expect(await stored()).toEqual([true, true]);

    // Without the option, opting out keeps what is stored (posthog-js's default).
    KEY = `phc_dropin_${++tests}`;
    const plain = init();
    plain.register({ plan: 'pro' });
    expect(await stored()).toEqual([true, true]);
    plain.opt_out_capturing();
    expect(await stored()).toEqual([true, true]);
    await Promise.all([client.flush(), plain.flush()]); // nothing of this test's left to reach the next one's fetch
  });

  it("cookieless_mode 'always': no persistent identifier is written, events carry the cookieless id", async () => {
    const { sent } = fakeFetch();
    const client = init({ cookieless_mode: 'always' });
    client.capture('anonymous');
    await client.flush();
    expect(sent[0]!.properties).toMatchObject({ distinct_id: '$posthog_cookieless', $cookieless_mode: true });
    expect(sent[0]!.properties.$device_id).toBeUndefined();
    expect(localStorage.getItem(`ht|${KEY}|p`)).toBeNull();
    expect(document.cookie).not.toContain(`ph_${KEY}_posthog`);
  });

  it("cookieless_mode 'on_reject': nothing before a choice; cookieless after a refusal; normal after consent", async () => {
    const { sent } = fakeFetch();
    const client = init({ cookieless_mode: 'on_reject' });
    client.capture('before');
    client.opt_out_capturing();
    client.capture('refused');
    expect(localStorage.getItem(`ht|${KEY}|p`)).toBeNull();
    client.opt_in_capturing();
    client.capture('accepted');
    await client.flush();
    expect(sent.map((e) => [e.event, e.properties.distinct_id === '$posthog_cookieless'])).toEqual([
      ['refused', true],
      ['$opt_in', false],
      ['accepted', false],
    ]);
  });

  it('$pageleave on pagehide by default when page views are on; defaults 2025-05-24 means history_change', async () => {
    const { sent } = fakeFetch();
    const client = init({ capture_pageview: undefined, defaults: '2025-05-24' });
    history.pushState({}, '', '/next');
    dispatchEvent(new Event('pagehide'));
    await client.flush();
    // As posthog-js: a route change is a $pageview (which ends the route before it); only leaving the page is a $pageleave.
    expect(sent.map((e) => [e.event, e.properties.$pathname, e.properties.$prev_pageview_pathname])).toEqual([
      ['$pageview', '/', undefined],
      ['$pageview', '/next', '/'],
      ['$pageleave', '/next', '/next'],
    ]);
    history.pushState({}, '', '/');
  });

  it('debug: true logs each captured event and each request', async () => {
    fakeFetch();
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => {});
    const client = init({ debug: true });
    client.capture('logged');
    await client.flush();
    const lines = debug.mock.calls.map(([line]) => String(line));
    expect(lines.some((line) => line.includes('captured') && line.includes('"logged"'))).toBe(true);
    expect(lines.some((line) => line.includes('sending 1 event'))).toBe(true);
  });
});
