// A page written for posthog-js (issue 13): the official snippet, calls before and after the script
// loads (every method posthog-js's snippet stubs, products hogtail does not have included),
// before_send, and a reload: zero page errors, the events arrive, `$pageleave` included.
import { describe, expect, it } from 'vitest';
import { hasChromium, openPage } from './support/chromium';
import { KEY, useChromiumSite } from './support/site';
import { officialSnippet } from './support/snippet';

// posthog-js's own list of the methods its loader stubs (node_modules/posthog-js/dist/loader.js).
const POSTHOG_METHODS = (
  'addExceptionStep alias calculateEventProperties canRenderSurvey canRenderSurveyAsync cancelPendingSurvey capture captureException ' +
  'captureLog captureTraceFeedback captureTraceMetric clearIdentity clear_opt_in_out_capturing createPersonProfile debug displaySurvey ' +
  'getActiveMatchingSurveys getAllFeatureFlags getEarlyAccessFeatures getExtension getFeatureFlag getFeatureFlagPayload getFeatureFlagResult ' +
  'getGroups getPageViewId getSessionProperty getSurveys get_distinct_id get_explicit_consent_status get_property get_session_id ' +
  'get_session_replay_url group has_opted_in_capturing has_opted_out_capturing identify init isFeatureEnabled is_capturing loadToolbar on ' +
  'onActiveMatchingSurveysChanged onFeatureFlags onSessionId onSurveysLoaded opt_in_capturing opt_out_capturing register ' +
  'register_for_session register_once reloadFeatureFlags renderSurvey reset resetGroupPropertiesForFlags resetGroups ' +
  'resetPersonPropertiesForFlags sessionRecordingStarted setGroupPropertiesForFlags setIdentity setInternalOrTestUser setPersonProperties ' +
  'setPersonPropertiesForFlags set_config shutdown startExceptionAutocapture startSessionRecording stopExceptionAutocapture ' +
  'stopSessionRecording unregister unregister_for_session unsetPersonProperties updateEarlyAccessFeatureEnrollment updateFlags'
).split(' ');

describe.skipIf(!hasChromium)('a page written for posthog-js', () => {
  const env = useChromiumSite();

  it('runs against hogtail with zero page errors; before_send drops; $pageleave arrives on reload', async () => {
    env.site.collector.clear();
    const url = env.site.collector.url;
    env.site.server.page(
      '/posthog-page.html',
      `<!doctype html><html><head><script>${officialSnippet('/hogtail.iife.js')}
posthog.init('${KEY}', { api_host: '${url}', defaults: '2025-05-24', before_send: (e) => (e && e.event === 'secret' ? null : e) });
posthog.startSessionRecording();
posthog.getSurveys(function () {});
posthog.onSessionId(function () {});
posthog.register_for_session({ tab: 'one' });
posthog.set_config({ debug: false });
posthog.group('company', 'acme');
posthog.captureException(new Error('before load'));
posthog.capture('secret');
posthog.capture('before load');
</script></head><body></body></html>`,
    );
    const context = await env.browser.newContext();
    const { page, errors } = await openPage(context);
    await page.goto(env.site.server.url + '/posthog-page.html');
    await page.waitForFunction(() => (window as any).posthog.__loaded === true);
    const missing = await page.evaluate(
      (names) => names.filter((name) => typeof (window as any).posthog[name] !== 'function'),
      POSTHOG_METHODS,
    );
    expect(missing).toEqual([]);
    await page.evaluate(() => {
      const posthog = (window as any).posthog;
      posthog.stopSessionRecording();
      posthog.getEarlyAccessFeatures(() => {});
      posthog.loadToolbar({});
      posthog.getGroups();
      posthog.resetGroups();
      posthog.get_property('distinct_id');
      posthog.has_opted_in_capturing();
      posthog.get_explicit_consent_status();
      posthog.people.set({ email: 'a@example.com' });
      posthog.people.set_once({ first: true });
      posthog.capture('after load');
    });
    await page.evaluate(() => (window as any).posthog.flush());
    await page.reload();
    await env.site.collector.waitForEvents(1, 15_000);
    await env.site.collector.waitUntil(() => env.site.collector.events.some((e) => e.event === '$pageleave'), 20_000);
    const names = env.site.collector.events.map((e) => e.event);
    expect(names).toEqual(
      expect.arrayContaining(['$pageview', '$groupidentify', '$exception', 'before load', 'after load', '$pageleave', '$set']),
    );
    expect(names).not.toContain('secret');
    expect(errors).toEqual([]);
    await context.close();
  });
});
