// Issue 28, switch and lose nothing: the same visit (landing from another site's page on a URL with
// UTM and click-id parameters, a capture, scrolling, three client-side routes, identify, leaving)
// run once through posthog-js and once through hogtail's script tag, against the same collector.
// hogtail must send the $pageview / $pageleave sequence posthog-js sends, every property it sends
// on each event (the properties that describe posthog-js itself, listed in
// docs/posthog-js-properties.md, are the only allowed difference), the same values for the
// deterministic ones, the same page-view chain, and the same scroll depths within 5 points.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReceivedEvent } from '../../src/devserver';
import { ensureBrowserBuild } from './support/build';
import { hasChromium, launchChromium } from './support/chromium';
import { startRecordingCollector, type RecordingCollector } from './support/recording-collector';
import { startStaticServer, type StaticServer } from './support/static-server';
import { LANDING_QUERY, LANGUAGE, landingPage, referringPage, returningVisit, routeThenLeave, visit, type VisitSdk } from './support/visit';

const POSTHOG_JS = fileURLToPath(new URL('../../node_modules/posthog-js/dist/array.full.no-external.js', import.meta.url));
const EXCEPTIONS_DOC = fileURLToPath(new URL('../../docs/posthog-js-properties.md', import.meta.url));
const JS_KEY = 'phc_visitPosthogJs';
const HT_KEY = 'phc_visitHogtail';
const LITE_KEY = 'phc_visitHogtailLite';
/** What the lite script tag leaves out (docs/posthog-js-properties.md, "The lite script tag"). */
const NOT_IN_LITE = /^(\$window_id|\$pageview_id|\$prev_pageview_.*)$/;
/** The events the visit yields, in capture order, as `event pathname`. */
const SEQUENCE = [
  '$pageview /landing',
  'custom event /landing',
  '$pageview /route-1',
  '$pageview /route-2',
  '$pageview /route-3',
  '$identify /route-3',
  'custom event /route-3',
  '$pageleave /route-3',
];
/** Ids, durations and the SDK's own name: checked for what they link, not compared as values. */
const NOT_DETERMINISTIC = new Set([
  'distinct_id',
  '$anon_distinct_id',
  '$device_id',
  '$session_id',
  '$window_id',
  '$pageview_id',
  '$prev_pageview_id',
  '$prev_pageview_duration',
  '$lib',
  '$lib_version',
]);

/** The property names (or `name*` prefixes) docs/posthog-js-properties.md lists as posthog-js's own. */
function documentedExceptions(): (name: string) => boolean {
  const names = [...readFileSync(EXCEPTIONS_DOC, 'utf8').matchAll(/^\| `([^`]+)` \|/gm)].map((match) => match[1]!);
  return (name) => names.some((listed) => (listed.endsWith('*') ? name.startsWith(listed.slice(0, -1)) : name === listed));
}

/** An event's properties without `$set` / `$set_once`, and its `$set_once` wherever the SDK put it. */
function split(event: ReceivedEvent): { props: Record<string, unknown>; setOnce: Record<string, unknown> | undefined } {
  const { $set: _set, $set_once, ...props } = event.properties;
  return { props, setOnce: (event.$set_once ?? $set_once) as Record<string, unknown> | undefined };
}

const label = (event: ReceivedEvent) => `${event.event} ${String(event.properties.$pathname)}`;

describe.skipIf(!hasChromium)('event properties: posthog-js and hogtail on the same visit', () => {
  let browser: Browser;
  let site: StaticServer;
  let elsewhere: StaticServer;
  let collector: RecordingCollector;
  const runs: Record<'js' | 'ht' | 'lite', ReceivedEvent[]> = { js: [], ht: [], lite: [] };
  const errors: string[] = [];

  /** The run's events of the visit, in capture order (both SDKs' uuids are UUIDv7, monotonic in a page). */
  const eventsOf = (key: string) =>
    collector.events
      .filter((event) => event.api_key === key && SEQUENCE.some((entry) => entry.startsWith(event.event + ' ')))
      .filter((event, index, all) => all.findIndex((other) => other.uuid === event.uuid) === index)
      .sort((a, b) => String(a.uuid).localeCompare(String(b.uuid)));

  async function run(sdk: VisitSdk): Promise<ReceivedEvent[]> {
    site.page('/landing', landingPage(sdk));
    errors.push(...(await visit(browser, sdk, `${elsewhere.url}/from`, `${site.url}/landing`, `${site.url}/away`)));
    const deadline = Date.now() + 30_000;
    while (eventsOf(sdk.key).length < SEQUENCE.length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    return eventsOf(sdk.key);
  }

  beforeAll(async () => {
    const iife = await ensureBrowserBuild();
    // The language is the browser's own (Chromium's emulated locale is gone while a page unloads).
    [browser, site, elsewhere, collector] = await Promise.all([
      launchChromium([`--accept-lang=${LANGUAGE}`]),
      startStaticServer(),
      startStaticServer(),
      startRecordingCollector(),
    ]);
    site.file('/posthog.js', POSTHOG_JS);
    site.file('/hogtail.js', iife);
    site.file('/hogtail.lite.js', iife.replace(/hogtail\.iife\.js$/, 'hogtail.lite.iife.js'));
    site.page('/away', '<!doctype html><title>away</title>');
    elsewhere.page('/from', referringPage(`${site.url}/landing${LANDING_QUERY}`));
    const shared = { api_host: collector.url, defaults: '2025-05-24', autocapture: false };
    // Headless Chromium reads as a bot to posthog-js, which then drops everything unless told.
    const posthogOnly = { opt_out_useragent_filter: true, disable_session_recording: true, disable_surveys: true };
    runs.js = await run({ global: 'posthog', script: '/posthog.js', key: JS_KEY, config: { ...shared, ...posthogOnly } });
    runs.ht = await run({ global: 'hogtail', script: '/hogtail.js', key: HT_KEY, config: shared });
    runs.lite = await run({ global: 'hogtail', script: '/hogtail.lite.js', key: LITE_KEY, config: shared });
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await elsewhere?.close();
    await collector?.close();
  });

  it('the same sequence: one $pageview per route and one $pageleave, for the page left', () => {
    expect(runs.js.map(label)).toEqual(SEQUENCE);
    expect(runs.ht.map(label)).toEqual(SEQUENCE);
    expect(errors).toEqual([]);
  });

  it('every property posthog-js sends on each event, and no other, but the documented exceptions', () => {
    const posthogOwn = documentedExceptions();
    const differences = SEQUENCE.map((entry, i) => {
      const js = split(runs.js[i]!);
      const ht = split(runs.ht[i]!);
      const keys = (props: Record<string, unknown> | undefined) => Object.keys(props ?? {}).filter((key) => !posthogOwn(key));
      const missing = keys(js.props).filter((key) => !(key in ht.props));
      const extra = keys(ht.props).filter((key) => !(key in js.props));
      const setOnceMissing = keys(js.setOnce).filter((key) => !(key in (ht.setOnce ?? {})));
      const setOnceExtra = keys(ht.setOnce).filter((key) => !(key in (js.setOnce ?? {})));
      return { entry, missing, extra, setOnceMissing, setOnceExtra };
    });
    expect(differences).toEqual(SEQUENCE.map((entry) => ({ entry, missing: [], extra: [], setOnceMissing: [], setOnceExtra: [] })));
    // The visit's numbers: posthog-js sends this much, hogtail the same less posthog-js's own.
    expect(Object.keys(split(runs.js[0]!).props).length).toBeGreaterThan(75);
    expect(Object.keys(split(runs.js[5]!).setOnce!)).toHaveLength(62);
    expect(Object.keys(split(runs.ht[5]!).setOnce!)).toHaveLength(62);
  });

  it('the same values for campaign, referrer, first-visit, session-entry, locale, URL and title properties', () => {
    const mismatches: string[] = [];
    SEQUENCE.forEach((entry, i) => {
      const js = split(runs.js[i]!);
      const ht = split(runs.ht[i]!);
      for (const key in js.props) {
        if (NOT_DETERMINISTIC.has(key) || !(key in ht.props) || /^\$prev_pageview_.*(scroll|content)/.test(key)) continue;
        if (JSON.stringify(js.props[key]) !== JSON.stringify(ht.props[key]))
          mismatches.push(`${entry}: ${key} ${JSON.stringify(js.props[key])} vs ${JSON.stringify(ht.props[key])}`);
      }
      if (
        JSON.stringify(js.setOnce) !==
        JSON.stringify(ht.setOnce && Object.fromEntries(Object.keys(js.setOnce ?? {}).map((key) => [key, ht.setOnce![key]])))
      ) {
        mismatches.push(`${entry}: $set_once ${JSON.stringify(js.setOnce)} vs ${JSON.stringify(ht.setOnce)}`);
      }
    });
    expect(mismatches).toEqual([]);
    // The visit really had them: a spot check of what the comparison covered.
    expect(runs.ht[0]!.properties).toMatchObject({
      utm_source: 'newsletter',
      gclid: 'g-123',
      $referrer: `${elsewhere.url}/from`,
      $browser_language: LANGUAGE,
    });
    expect(runs.ht[7]!.properties).toMatchObject({
      $session_entry_utm_campaign: 'spring_sale',
      $session_entry_pathname: '/landing',
      $current_url: `${site.url}/route-3`,
    });
  });

  it("$identify's $set: the keys posthog-js sets, Meta's $fbc from the landing URL's fbclid among them", () => {
    const setKeys = (event: ReceivedEvent) => Object.keys((event.$set ?? event.properties.$set) as object).sort();
    expect(setKeys(runs.ht[5]!)).toEqual(setKeys(runs.js[5]!));
    expect((runs.ht[5]!.properties.$set as Record<string, unknown>).$fbc).toMatch(/^fb\.1\.\d{13}\.f-456$/);
  });

  it('the same page-view chain: each $pageview names its own uuid and the one before; other events the current one', () => {
    for (const events of [runs.js, runs.ht]) {
      const [landing, custom, route1, route2, route3, identify, custom2, leave] = events.map((event) => event.properties);
      const views = [events[0]!, events[2]!, events[3]!, events[4]!];
      views.forEach((view) => expect(view.properties.$pageview_id).toBe(view.uuid));
      expect([route1, route2, route3].map((view) => view!.$prev_pageview_id)).toEqual([views[0]!.uuid, views[1]!.uuid, views[2]!.uuid]);
      expect([route1, route2, route3, leave].map((view) => view!.$prev_pageview_pathname)).toEqual([
        '/landing',
        '/route-1',
        '/route-2',
        '/route-3',
      ]);
      expect(landing!.$prev_pageview_id).toBeUndefined();
      expect(custom!.$pageview_id).toBe(views[0]!.uuid);
      expect([identify!.$pageview_id, custom2!.$pageview_id, leave!.$pageview_id, leave!.$prev_pageview_id]).toEqual(
        Array(4).fill(views[3]!.uuid),
      );
      for (const view of [route1, route2, route3, leave]) expect(view!.$prev_pageview_duration).toBeGreaterThan(0);
      expect(new Set(events.map((event) => event.properties.$window_id)).size).toBe(1);
    }
  });

  it('the same scroll depths within 5 points', () => {
    const depths = (events: ReceivedEvent[]) =>
      events.flatMap((event) =>
        Object.entries(event.properties)
          .filter(([key]) => /^\$prev_pageview_.*(scroll|content)/.test(key))
          .map(([key, value]) => [`${label(event)} ${key}`, value as number] as const),
      );
    const js = depths(runs.js);
    const ht = new Map(depths(runs.ht));
    // Four page views ended (three by the next route, the last by leaving), each with eight depths.
    expect(js.length).toBe(4 * 8);
    for (const [name, value] of js) {
      const tolerance = name.endsWith('percentage') ? 0.05 : 0.05 * 4000;
      expect(Math.abs((ht.get(name) ?? NaN) - value), `${name}: posthog-js ${value}, hogtail ${ht.get(name)}`).toBeLessThanOrEqual(
        tolerance,
      );
    }
  });
  it('capture_pageview: true: one $pageview and one $pageleave for the page being left, with its end, as posthog-js', async () => {
    const keys = { js: 'phc_leavePosthogJs', ht: 'phc_leaveHogtail' };
    const config = { api_host: collector.url, capture_pageview: true, autocapture: false };
    const posthogOnly = { opt_out_useragent_filter: true, disable_session_recording: true, disable_surveys: true };
    const sdks = {
      js: { global: 'posthog', script: '/posthog.js', key: keys.js, config: { ...config, ...posthogOnly } },
      ht: { global: 'hogtail', script: '/hogtail.js', key: keys.ht, config },
    };
    const seen: Record<string, ReceivedEvent[]> = {};
    for (const name of ['js', 'ht'] as const) {
      site.page('/landing', landingPage(sdks[name]));
      errors.push(...(await routeThenLeave(browser, sdks[name], `${elsewhere.url}/from`, `${site.url}/landing`, `${site.url}/away`)));
      const deadline = Date.now() + 30_000;
      const mine = () => collector.events.filter((event) => event.api_key === keys[name] && /^\$page/.test(event.event));
      while (!mine().some((event) => event.event === '$pageleave') && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
      seen[name] = mine().sort((a, b) => String(a.uuid).localeCompare(String(b.uuid)));
    }
    const summary = (events: ReceivedEvent[]) =>
      events.map((event) => [
        event.event,
        event.properties.$pathname,
        event.properties.$prev_pageview_pathname,
        event.properties.$prev_pageview_id === events[0]!.uuid,
      ]);
    expect(summary(seen.ht!)).toEqual(summary(seen.js!));
    expect(summary(seen.ht!)).toEqual([
      ['$pageview', '/landing', undefined, false],
      ['$pageleave', '/route-1', '/landing', true],
    ]);
    const posthogOwn = documentedExceptions();
    const keysOf = (event: ReceivedEvent) =>
      Object.keys(event.properties)
        .filter((key) => !posthogOwn(key))
        .sort();
    expect(keysOf(seen.ht![1]!)).toEqual(keysOf(seen.js![1]!));
    for (const key of [
      '$prev_pageview_max_scroll_percentage',
      '$prev_pageview_last_scroll_percentage',
      '$prev_pageview_max_content_percentage',
    ]) {
      expect(Math.abs((seen.ht![1]!.properties[key] as number) - (seen.js![1]!.properties[key] as number)), key).toBeLessThanOrEqual(0.05);
    }
    expect(errors).toEqual([]);
  });

  it('a visitor posthog-js knew keeps, after the switch, the super properties, groups, first page and session entry it recorded', async () => {
    // The same project key on both pages of a run (hogtail reads posthog-js's record of that key).
    const keys = { js: 'phc_returnPosthogJs', ht: 'phc_returnHogtail' };
    const posthog = (key: string): VisitSdk => ({
      global: 'posthog',
      script: '/posthog.js',
      key,
      config: {
        api_host: collector.url,
        autocapture: false,
        opt_out_useragent_filter: true,
        disable_session_recording: true,
        disable_surveys: true,
      },
    });
    const hogtail = (key: string): VisitSdk => ({
      global: 'hogtail',
      script: '/hogtail.js',
      key,
      config: { api_host: collector.url, autocapture: false },
    });
    const after: Record<string, { switched: ReceivedEvent; identify: ReceivedEvent }> = {};
    for (const [name, second] of [
      ['js', posthog(keys.js)],
      ['ht', hogtail(keys.ht)],
    ] as const) {
      site.page('/landing', landingPage(posthog(second.key)));
      site.page('/next', landingPage(second));
      errors.push(
        ...(await returningVisit(browser, posthog(second.key), second, `${elsewhere.url}/from`, `${site.url}/landing`, `${site.url}/next`)),
      );
      const find = (event: string) =>
        collector.events.find((e) => e.api_key === second.key && e.event === event && e.properties.$pathname === '/next');
      const deadline = Date.now() + 30_000;
      while (!(find('after switch') && find('$identify')) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
      after[name] = { switched: find('after switch')!, identify: find('$identify')! };
    }
    for (const run of [after.js!, after.ht!]) {
      expect(run.switched.properties).toMatchObject({
        plan: 'pro',
        $groups: { company: 'acme' },
        $session_entry_pathname: '/landing',
        $session_entry_utm_source: 'newsletter',
      });
      expect(split(run.identify).setOnce).toMatchObject({
        $initial_pathname: '/landing',
        $initial_utm_source: 'newsletter',
        $initial_referrer: `${elsewhere.url}/from`,
      });
    }
    // hogtail's first event is the same visitor in the same session posthog-js started.
    const landed = collector.events.find((e) => e.api_key === keys.ht && e.event === '$pageview' && e.properties.$pathname === '/landing')!;
    expect(after.ht!.switched.distinct_id).toBe(landed.distinct_id);
    expect(after.ht!.switched.properties.$session_id).toBe(landed.properties.$session_id);
    expect(errors).toEqual([]);
  });
  it('the lite script tag: the same sequence and the same properties and values, less the page-view chain and $window_id', () => {
    expect(runs.lite.map(label)).toEqual(SEQUENCE);
    const differences = SEQUENCE.map((entry, i) => {
      const full = split(runs.ht[i]!);
      const lite = split(runs.lite[i]!);
      const expected = Object.keys(full.props).filter((key) => !NOT_IN_LITE.test(key));
      const values = expected.filter(
        (key) => !NOT_DETERMINISTIC.has(key) && JSON.stringify(full.props[key]) !== JSON.stringify(lite.props[key]),
      );
      return {
        entry,
        keys: Object.keys(lite.props).sort(),
        values,
        setOnce: JSON.stringify(lite.setOnce) === JSON.stringify(full.setOnce),
      };
    });
    expect(differences).toEqual(
      SEQUENCE.map((entry, i) => ({
        entry,
        keys: Object.keys(split(runs.ht[i]!).props)
          .filter((key) => !NOT_IN_LITE.test(key))
          .sort(),
        values: [],
        setOnce: true,
      })),
    );
  });
});
