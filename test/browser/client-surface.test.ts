// @vitest-environment happy-dom
// @vitest-environment-options { "url": "http://app.shop.test/" }
// The parts of posthog-js's client that apps touch beyond its methods (issue 28): named instances
// (init(token, config, name), the snippet's form too), `config`, `featureFlags`, `persistence`,
// `_isIdentified()` and `getNextSurveyStep`. Where posthog-js runs here without a network, the same
// calls are made on it and compared; delivery and flags go through a real collector on 127.0.0.1.
import posthogJs from 'posthog-js';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHogtail } from '../../src/browser/api/drop-in';
import { installScriptTag } from '../../src/browser/api/snippet';
import type { Hogtail, HogtailConfig } from '../../src/browser/hogtail';
import { createCollector, type Collector } from '../../src/devserver';
import { officialSnippet } from '../e2e/support/snippet';

let KEY = 'phc_surface';
let tests = 0;
let collector: Collector;

beforeEach(async () => {
  localStorage.clear();
  sessionStorage.clear();
  KEY = `phc_surface_${++tests}`;
  collector = await createCollector({
    decide: () => ({ featureFlags: { beta: true, layout: 'wide', old: false }, featureFlagPayloads: { layout: '{"columns":3}' } }) as never,
  });
});
afterEach(async () => {
  vi.restoreAllMocks();
  await collector.close();
});
afterAll(() => {
  delete (window as { posthog?: unknown }).posthog;
});

const options = (config: HogtailConfig = {}): HogtailConfig => ({
  api_host: collector.url,
  capture_pageview: false,
  autocapture: false,
  flush_at: 1,
  ...config,
});

/** A client with its errors kept out of the console. */
function client(): Hogtail {
  const made = createHogtail();
  made.on('error', () => {});
  return made;
}

/** posthog-js's client, as apps have it; its requests are not part of what is compared. */
const offline = { advanced_disable_flags: true, disable_session_recording: true, disable_surveys: true, autocapture: false };

describe('named instances', () => {
  it('init(token, config, name) returns another client, reachable as client[name], the same one on a second call: as posthog-js', () => {
    const hogtail = client();
    hogtail.init(KEY, options());
    const second = hogtail.init(`${KEY}_second`, options(), 'second');
    const js = posthogJs.init('phc_js_named', { api_host: collector.url, ...offline, capture_pageview: false }, 'second')!;
    for (const [sdk, named] of [
      [hogtail, second],
      [posthogJs, js],
    ] as const) {
      expect(named).not.toBe(sdk);
      expect((sdk as unknown as Record<string, unknown>).second).toBe(named);
      expect(named.__loaded).toBe(true);
    }
    expect(hogtail.init('phc_other', options(), 'second')).toBe(second);
    expect(second.config.token).toBe(`${KEY}_second`);
    expect(js.config.token).toBe('phc_js_named');
  });

  it('each delivers with its own project key and keeps its own identity, even for the same key', async () => {
    const hogtail = client();
    hogtail.init(KEY, options());
    const other = hogtail.init(`${KEY}_other`, options(), 'other');
    const same = hogtail.init(KEY, options(), 'same');
    hogtail.capture('from default');
    other.capture('from other');
    same.capture('from same');
    const events = await collector.waitForEvents(3, 20_000);
    const by = (name: string) => events.find((event) => event.event === name)!;
    expect(by('from default').api_key).toBe(KEY);
    expect(by('from other').api_key).toBe(`${KEY}_other`);
    expect(by('from same').api_key).toBe(KEY);
    expect(new Set([hogtail, other, same].map((sdk) => sdk.get_distinct_id())).size).toBe(3);
    expect(by('from same').distinct_id).toBe(same.get_distinct_id());
    expect(Object.keys(localStorage).some((key) => key.startsWith(`ht|${KEY}|same|`))).toBe(true);
  });

  it('a name that is already a member is refused with a warning, not written over', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const hogtail = client();
    const capture = hogtail.capture;
    expect(hogtail.init(KEY, options(), 'capture')).toBe(hogtail);
    expect(hogtail.capture).toBe(capture);
    expect(warn.mock.calls.flat().join(' ')).toContain('instance name "capture" is already a member');
  });

  it("the official snippet's named form: posthog.name's queued calls reach that instance, before its first $pageview", async () => {
    delete (window as { posthog?: unknown }).posthog;
    document.head.appendChild(document.createElement('script')); // the snippet inserts its tag before the page's first
    new Function(officialSnippet(`${collector.url}/static/array.js`))();
    const stub = (window as unknown as { posthog: Record<string, any> }).posthog;
    // A named init before the default one gets a stub of its own at posthog.named …
    stub.init(`${KEY}_named`, options({ capture_pageview: true }), 'named');
    stub.init(KEY, options());
    stub.named.reset();
    stub.named.capture('queued on named');
    stub.capture('queued on default');
    // … one after it is itself a queued call (the default's stub queues init too), run in its turn.
    stub.init(`${KEY}_later`, options(), 'later');
    installScriptTag(createHogtail());
    const posthog = (window as unknown as { posthog: Hogtail & Record<'named' | 'later', Hogtail> }).posthog;
    posthog.on('error', () => {});
    expect(posthog.named.__loaded).toBe(true);
    posthog.later.capture('on later');
    const events = await collector.waitForEvents(4, 20_000);
    const named = events.filter((event) => event.api_key === `${KEY}_named`);
    expect(named.map((event) => event.event)).toEqual(['queued on named', '$pageview']);
    expect(named[1]!.distinct_id).toBe(posthog.named.get_distinct_id());
    expect(events.find((event) => event.event === 'queued on default')!.api_key).toBe(KEY);
    expect(events.find((event) => event.event === 'on later')!.api_key).toBe(`${KEY}_later`);
  });
});

describe('config', () => {
  it("is the options with posthog-js's defaults and the token, as posthog-js's config reads", () => {
    const hogtail = client();
    hogtail.init(KEY, options({ persistence: 'localStorage' }));
    const js = posthogJs.init('phc_js_config', { api_host: collector.url, ...offline, persistence: 'localStorage' }, 'config')!;
    for (const [sdk, token] of [
      [hogtail, KEY],
      [js, 'phc_js_config'],
    ] as const) {
      expect(sdk.config).toMatchObject({ api_host: collector.url, persistence: 'localStorage', token, person_profiles: 'identified_only' });
      expect(sdk.config.save_referrer).toBe(true);
      expect(sdk.config.request_batching).toBe(true);
    }
    expect({ ...hogtail.config }.token).toBe(KEY);
  });

  it('is read-only: an assignment does not throw (strict code), changes nothing and says to use set_config', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const hogtail = client();
    hogtail.init(KEY, options());
    expect(() => {
      (hogtail.config as { debug?: boolean }).debug = true;
    }).not.toThrow();
    expect(hogtail.config.debug).toBe(false);
    expect(warn.mock.calls.flat().join(' ')).toContain('config is read-only: call set_config({ debug })');
    hogtail.set_config({ debug: true });
    expect(hogtail.config.debug).toBe(true);
  });
});

describe('featureFlags', () => {
  it('getFlags, getFlagVariants, getFlagPayloads, hasLoadedFlags and the flag methods, from the collector’s answer', async () => {
    const hogtail = client();
    expect(hogtail.featureFlags.hasLoadedFlags).toBe(false);
    hogtail.init(KEY, options());
    await new Promise<void>((resolve) => hogtail.onFeatureFlags(() => resolve()));
    const flags = hogtail.featureFlags;
    expect(flags.hasLoadedFlags).toBe(true);
    expect(flags.getFlags().sort()).toEqual(['beta', 'layout', 'old']);
    expect(flags.getFlagVariants()).toEqual({ beta: true, layout: 'wide', old: false });
    expect(flags.getFlagPayloads()).toEqual({ layout: '{"columns":3}' });
    expect(flags.getFeatureFlagPayload('layout')).toEqual({ columns: 3 });
    expect(flags.isFeatureEnabled('beta', { send_event: false })).toBe(true);
    expect(flags.getFeatureFlag('layout', { send_event: false })).toBe('wide');
    flags.updateFlags({ beta: false });
    expect(hogtail.isFeatureEnabled('beta', { send_event: false })).toBe(false);
  });

  it('reads as posthog-js’s featureFlags does for the same answer', async () => {
    const hogtail = client();
    hogtail.init(KEY, options());
    const js = posthogJs.init('phc_js_flags', { ...offline, api_host: collector.url, advanced_disable_flags: false }, 'flags')!;
    await Promise.all([hogtail, js].map((sdk) => new Promise<void>((resolve) => sdk.onFeatureFlags(() => resolve()))));
    for (const sdk of [hogtail, js]) {
      expect(sdk.featureFlags.getFlags().sort()).toEqual(['beta', 'layout', 'old']);
      expect(sdk.featureFlags.getFlagVariants()).toEqual({ beta: true, layout: 'wide', old: false });
      expect(sdk.featureFlags.getFlagPayloads()).toMatchObject({ layout: '{"columns":3}' });
      expect(sdk.featureFlags.getFeatureFlagPayload('layout')).toEqual({ columns: 3 });
      expect(sdk.featureFlags.hasLoadedFlags).toBe(true);
    }
  });

  it('overrideFeatureFlags() wins over the server’s flags in the flag methods, the listeners and the events; false clears; as posthog-js', async () => {
    const hogtail = client();
    hogtail.init(KEY, options());
    const js = posthogJs.init('phc_js_override', { ...offline, api_host: collector.url, advanced_disable_flags: false }, 'override')!;
    await Promise.all([hogtail, js].map((sdk) => new Promise<void>((resolve) => sdk.onFeatureFlags(() => resolve()))));
    const heard: string[][] = [];
    hogtail.onFeatureFlags((active) => heard.push([...active].sort()));
    for (const sdk of [hogtail, js]) {
      sdk.featureFlags.overrideFeatureFlags({ flags: { beta: false, layout: 'narrow', extra: true }, payloads: { extra: '{"on":1}' } });
      expect(sdk.featureFlags.getFlagVariants()).toEqual({ beta: false, layout: 'narrow', old: false, extra: true });
      expect(sdk.isFeatureEnabled('beta', { send_event: false })).toBe(false);
      expect(sdk.getFeatureFlag('layout', { send_event: false })).toBe('narrow');
      expect(sdk.getFeatureFlagPayload('extra')).toEqual({ on: 1 });
      sdk.featureFlags.override(['old']); // the older form: a list of keys, on
      expect(sdk.featureFlags.getFlagVariants()).toMatchObject({ beta: true, old: true });
    }
    expect(heard.at(-1)).toEqual(['beta', 'layout', 'old']);
    hogtail.capture('with overrides');
    const [event] = await collector.waitForEvents(1, 20_000);
    expect(event!.properties).toMatchObject({ '$feature/old': true, '$feature/beta': true });
    for (const sdk of [hogtail, js]) {
      sdk.featureFlags.overrideFeatureFlags(false);
      expect(sdk.featureFlags.getFlagVariants()).toEqual({ beta: true, layout: 'wide', old: false });
    }
  });

  it('overrides are kept for the next page and cleared by reset()', async () => {
    const first = client();
    first.init(KEY, options({ advanced_disable_flags: true, bootstrap: { featureFlags: { beta: false } } }));
    first.featureFlags.overrideFeatureFlags({ flags: { beta: true } });
    await new Promise((resolve) => setTimeout(resolve, 0));
    const next = client();
    next.init(KEY, options({ advanced_disable_flags: true }));
    expect(next.isFeatureEnabled('beta', { send_event: false })).toBe(true);
    next.reset(); // a new visitor: no flags of the old one's, overrides included (until the next answer)
    expect(next.featureFlags.getFlagVariants()).toEqual({});
  });

  it('before init() an override has no effect and says so once', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const hogtail = client();
    hogtail.featureFlags.overrideFeatureFlags({ flags: { beta: true } });
    hogtail.featureFlags.override({ beta: true });
    expect(warn.mock.calls.filter((call) => String(call[0]).includes('before init() has no effect'))).toHaveLength(1);
  });
});

describe('persistence and _isIdentified()', () => {
  it("persistence.props holds the identity and super properties under posthog-js's names; register through it reaches events", async () => {
    const hogtail = client();
    hogtail.init(KEY, options());
    hogtail.register({ plan: 'pro' });
    hogtail.persistence.register({ team: 'core' });
    hogtail.persistence.set_property('seats', 3);
    expect(hogtail.persistence.props).toMatchObject({
      distinct_id: hogtail.get_distinct_id(),
      $device_id: hogtail.get_distinct_id(),
      $user_state: 'anonymous',
      plan: 'pro',
      team: 'core',
      seats: 3,
    });
    expect(hogtail.persistence.get_property('plan')).toBe('pro');
    hogtail.persistence.unregister('plan');
    hogtail.capture('after');
    const [event] = await collector.waitForEvents(1, 20_000);
    expect(event!.properties).toMatchObject({ team: 'core', seats: 3 });
    expect(event!.properties).not.toHaveProperty('plan');
  });

  it('_isIdentified() is false until identify(), true after, false again after reset(): as posthog-js', () => {
    const hogtail = client();
    expect(hogtail._isIdentified()).toBe(false); // before init(), as posthog-js answers then
    hogtail.init(KEY, options());
    const js = posthogJs.init('phc_js_identified', { api_host: collector.url, ...offline }, 'identified')!;
    for (const sdk of [hogtail, js]) {
      expect(sdk._isIdentified()).toBe(false);
      sdk.identify('user-1');
      expect(sdk._isIdentified()).toBe(true);
      sdk.reset();
      expect(sdk._isIdentified()).toBe(false);
    }
  });
});

describe('getNextSurveyStep', () => {
  it('exists, never throws, answers -1 with no surveys loaded and warns once that hogtail has no surveys', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const hogtail = client();
    hogtail.init(KEY, options());
    const survey = { id: 's1', name: 'NPS', type: 'popover', questions: [{ type: 'open', question: 'Why?' }] };
    expect(hogtail.getNextSurveyStep(survey, 0, 'because')).toBe(-1);
    expect(hogtail.getNextSurveyStep(survey, 0, null)).toBe(-1);
    expect(warn.mock.calls.filter((call) => String(call[0]).includes('getNextSurveyStep'))).toHaveLength(1);
  });
});
