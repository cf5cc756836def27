// Issue 28's remainder, switch and lose nothing: what a posthog-js app configured or was handed
// keeps working after the switch. Each scenario runs once through posthog-js and once through
// hogtail's script tag, on the same page against the same collector, and compares what arrives:
// Meta's click and browser ids ($fbc / $fbp in $set), personal-data masking of URLs and click ids,
// the first-touch properties an older posthog-js stored ($initial_referrer_info /
// $initial_campaign_params), and a session id handed in with bootstrap.
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReceivedEvent } from '../../src/devserver';
import { ensureBrowserBuild } from './support/build';
import { hasChromium, launchChromium, openPage } from './support/chromium';
import { startRecordingCollector, type RecordingCollector } from './support/recording-collector';
import { startStaticServer, type StaticServer } from './support/static-server';

const POSTHOG_JS = fileURLToPath(new URL('../../node_modules/posthog-js/dist/array.full.no-external.js', import.meta.url));
type Sdk = 'js' | 'ht';
const SDKS: Sdk[] = ['js', 'ht'];
/** Headless Chromium reads as a bot to posthog-js, which then drops everything unless told. */
const POSTHOG_ONLY = { opt_out_useragent_filter: true, disable_session_recording: true, disable_surveys: true };
const FBP = 'fb.1.1700000000000.1234567890';
const FBC = 'fb.1.1700000000500.AbC-cookie_click';

interface Scenario {
  /** Query string of the page (with its `?`). */
  query?: string;
  config?: Record<string, unknown>;
  /** Cookies on the site before the page loads. */
  cookies?: Record<string, string>;
  /** posthog-js's localStorage record (`ph_<key>_posthog`) before the page loads. */
  record?: Record<string, unknown>;
  /** Calls made on the SDK once loaded: [method, ...args]. */
  calls: [string, ...unknown[]][];
  /** Events to wait for (names; the same name twice waits for two). */
  expect: string[];
}

/** An event's `$set` / `$set_once` wherever the SDK put it (posthog-js: top level; hogtail: properties). */
const setOf = (event: ReceivedEvent | undefined) => (event?.$set ?? event?.properties.$set) as Record<string, unknown> | undefined;
const setOnceOf = (event: ReceivedEvent | undefined) =>
  (event?.$set_once ?? event?.properties.$set_once) as Record<string, unknown> | undefined;

/** A UUIDv7 made `ago` ms before now, as a server that started the session would hand it in. */
function uuidv7Ago(ago: number): { id: string; start: number } {
  const start = Date.now() - ago;
  const hex = start.toString(16).padStart(12, '0') + '7abc8def0123456789ab';
  return { id: `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`, start };
}

describe.skipIf(!hasChromium)('switching keeps what posthog-js was configured with: posthog-js and hogtail on the same page', () => {
  let browser: Browser;
  let site: StaticServer;
  let collector: RecordingCollector;
  const errors: string[] = [];
  const warnings: string[] = [];
  let runs = 0;

  /** Runs `scenario` through both SDKs; each run's events (capture order) and its posthog-js cookie record. */
  async function both(scenario: Scenario) {
    const result = {} as Record<Sdk, { key: string; events: ReceivedEvent[]; cookie: Record<string, unknown> | undefined }>;
    for (const sdk of SDKS) {
      const key = `phc_fidelity${++runs}${sdk}`;
      const config = { api_host: collector.url, autocapture: false, ...scenario.config, ...(sdk === 'js' ? POSTHOG_ONLY : {}) };
      const global = sdk === 'js' ? 'posthog' : 'hogtail';
      site.page(
        `/page-${key}`,
        `<!doctype html><title>fidelity</title><script src="/${global}.js"></script>
<script>${global}.init(${JSON.stringify(key)}, ${JSON.stringify(config)});</script>`,
      );
      const context = await browser.newContext();
      const cookies = Object.entries(scenario.cookies ?? {}).map(([name, value]) => ({ name, value, url: site.url }));
      if (cookies.length) await context.addCookies(cookies);
      if (scenario.record)
        await context.addInitScript(
          ([name, record]) => location.protocol === 'http:' && localStorage.setItem(name!, record!),
          [`ph_${key}_posthog`, JSON.stringify(scenario.record)],
        );
      const { page } = await openPage(context, errors);
      page.on('console', (message) => message.type() === 'warning' && sdk === 'ht' && warnings.push(message.text()));
      await page.goto(`${site.url}/page-${key}${scenario.query ?? ''}`);
      await page.waitForFunction((name) => (window as any)[name]?.__loaded === true, global);
      for (const [method, ...args] of scenario.calls)
        await page.evaluate(([name, fn, rest]) => (window as any)[name][fn](...rest), [global, method, args] as const);
      const cookie = (await context.cookies()).find((c) => c.name === `ph_${key}_posthog`);
      await page.goto('about:blank'); // posthog-js sends what it still holds by beacon
      const mine = () =>
        collector.events
          .filter((event) => event.api_key === key && scenario.expect.includes(event.event))
          .filter((event, i, all) => all.findIndex((other) => other.uuid === event.uuid) === i)
          .sort((a, b) => String(a.uuid).localeCompare(String(b.uuid)));
      await collector.waitUntil(() => mine().length >= scenario.expect.length, 30_000);
      await context.close();
      result[sdk] = { key, events: mine(), cookie: cookie && JSON.parse(decodeURIComponent(cookie.value)) };
    }
    return result;
  }

  beforeAll(async () => {
    const iife = await ensureBrowserBuild();
    [browser, site, collector] = await Promise.all([launchChromium(), startStaticServer(), startRecordingCollector()]);
    site.file('/posthog.js', POSTHOG_JS);
    site.file('/hogtail.js', iife);
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await collector?.close();
  });

  it('$fbc from the landing URL’s fbclid and $fbp from Meta’s cookie go in $set once, with the first event that processes the person', async () => {
    const runs = await both({
      query: '?fbclid=Click_123-abc&utm_source=meta',
      cookies: { _fbp: FBP },
      calls: [
        ['capture', 'anonymous event'],
        ['identify', 'meta-user', { plan: 'pro' }],
        ['capture', 'after identify'],
      ],
      expect: ['$pageview', 'anonymous event', '$identify', 'after identify'],
    });
    for (const sdk of SDKS) {
      const [view, anonymous, identify, after] = runs[sdk].events;
      expect(
        [view, anonymous, identify, after].map((event) => event?.event),
        sdk,
      ).toEqual(['$pageview', 'anonymous event', '$identify', 'after identify']);
      // Anonymous events do not process the person (identified_only): nothing to set yet.
      expect([setOf(view)?.$fbc, setOf(anonymous)?.$fbc], sdk).toEqual([undefined, undefined]);
      expect(setOf(identify), sdk).toMatchObject({ plan: 'pro', $fbp: FBP, $fbc: expect.stringMatching(/^fb\.1\.\d{13}\.Click_123-abc$/) });
    }
    // Sent once: the person has them. (posthog-js sends them again until the request that carried
    // them is answered; hogtail's queue delivers what it holds, so once queued they count as sent.)
    const after = runs.ht.events[3];
    expect([setOf(after)?.$fbc, setOf(after)?.$fbp]).toEqual([undefined, undefined]);
  });

  it('Meta’s _fbc cookie wins when the URL has no click id; person_profiles "always" sends it with the first event', async () => {
    const runs = await both({
      config: { person_profiles: 'always' },
      cookies: { _fbc: FBC, _fbp: FBP },
      calls: [['capture', 'second event']],
      expect: ['$pageview', 'second event'],
    });
    for (const sdk of SDKS) expect(setOf(runs[sdk].events[0]), sdk).toMatchObject({ $fbc: FBC, $fbp: FBP });
    expect(setOf(runs.ht.events[1])?.$fbc).toBeUndefined();
  });

  it('save_campaign_params: false reads neither the click id nor the cookies', async () => {
    const runs = await both({
      query: '?fbclid=Click_123',
      config: { person_profiles: 'always', save_campaign_params: false },
      cookies: { _fbc: FBC, _fbp: FBP },
      calls: [],
      expect: ['$pageview'],
    });
    for (const sdk of SDKS)
      expect([setOf(runs[sdk].events[0])?.$fbc, setOf(runs[sdk].events[0])?.$fbp], sdk).toEqual([undefined, undefined]);
  });

  it('mask_personal_data_properties masks click ids (and custom_personal_data_properties) in URLs and campaign properties, as posthog-js', async () => {
    const runs = await both({
      query: '?utm_source=ads&gclid=secret-g&fbclid=secret-f&member=42&keep=1#top',
      config: { mask_personal_data_properties: true, custom_personal_data_properties: ['member'], person_profiles: 'always' },
      calls: [['capture', 'masked event']],
      expect: ['$pageview', 'masked event'],
    });
    const compared = [
      '$current_url',
      'utm_source',
      'gclid',
      'fbclid',
      '$session_entry_url',
      '$session_entry_gclid',
      '$session_entry_fbclid',
    ];
    // The two pages differ only by their path (the project key in it).
    const pick = (sdk: Sdk, event: ReceivedEvent | undefined) =>
      JSON.parse(
        JSON.stringify({
          props: Object.fromEntries(compared.map((key) => [key, event?.properties[key]])),
          setOnce: Object.fromEntries(Object.entries(setOnceOf(event) ?? {}).filter(([key]) => /url|gclid|fbclid|utm_source/.test(key))),
        }).replaceAll(runs[sdk].key, 'KEY'),
      );
    const [jsView, jsEvent] = runs.js.events;
    const [htView, htEvent] = runs.ht.events;
    expect(pick('ht', htView)).toEqual(pick('js', jsView));
    expect(pick('ht', htEvent)).toEqual(pick('js', jsEvent));
    // The comparison had something to compare: the values really are masked, the rest kept.
    expect(htView!.properties).toMatchObject({
      $current_url: `${site.url}${String(htView!.properties.$pathname)}?utm_source=ads&gclid=<masked>&fbclid=<masked>&member=<masked>&keep=1#top`,
      gclid: '<masked>',
      utm_source: 'ads',
    });
    expect(setOnceOf(htView)).toMatchObject({ $initial_gclid: '<masked>', $initial_fbclid: '<masked>' });
    // A masked click id is no click id: nothing for Meta.
    expect(setOf(htView)?.$fbc).toBeUndefined();
  });

  it('the first touch an older posthog-js stored ($initial_referrer_info, $initial_campaign_params) is what $identify sets once', async () => {
    const record = {
      distinct_id: 'legacy-visitor',
      $device_id: 'legacy-visitor',
      $user_state: 'anonymous',
      $initial_referrer_info: { $referrer: 'https://old.example/post', $referring_domain: 'old.example' },
      $initial_campaign_params: { utm_source: 'old_newsletter', utm_medium: 'email', gclid: null },
    };
    const runs = await both({ record, calls: [['identify', 'legacy-user']], expect: ['$pageview', '$identify'] });
    const initial = (sdk: Sdk) =>
      Object.fromEntries(Object.entries(setOnceOf(runs[sdk].events[1]) ?? {}).filter(([key]) => key.startsWith('$initial_')));
    expect(runs.ht.events[1]?.event).toBe('$identify');
    expect(initial('ht')).toEqual(initial('js'));
    expect(initial('ht')).toMatchObject({ $initial_referrer: 'https://old.example/post', $initial_utm_source: 'old_newsletter' });
  });

  it('bootstrap.sessionID: events carry the session the server started, dated from its id', async () => {
    const { id, start } = uuidv7Ago(10 * 60_000);
    const runs = await both({
      config: { bootstrap: { sessionID: id } },
      calls: [['capture', 'in session']],
      expect: ['$pageview', 'in session'],
    });
    for (const sdk of SDKS) {
      expect(
        runs[sdk].events.map((event) => event.properties.$session_id),
        sdk,
      ).toEqual([id, id]);
      const sesid = runs[sdk].cookie?.$sesid as [number, string, number];
      expect([sesid[1], sesid[2]], sdk).toEqual([id, start]);
    }
  });

  it('bootstrap.sessionID that is not a UUIDv7 is not used, and hogtail says why', async () => {
    const runs = await both({
      config: { bootstrap: { sessionID: 'not-a-uuid' } },
      calls: [['capture', 'own session']],
      expect: ['$pageview', 'own session'],
    });
    for (const sdk of SDKS) expect(runs[sdk].events[1]?.properties.$session_id, sdk).toMatch(/^[0-9a-f-]{36}$/);
    expect(warnings.some((text) => /bootstrap\.sessionID "not-a-uuid" is not a UUIDv7/.test(text))).toBe(true);
    expect(errors).toEqual([]);
  });
});
