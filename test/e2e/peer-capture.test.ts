// The PostHog SDKs themselves (posthog-js in real Chromium, posthog-node in this process) send their
// events to `hogtail dev` as they would to PostHog: everything arrives, nothing is refused, and a
// group's identify counts as a group, not a person.
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { PostHog as PostHogNode } from 'posthog-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevServer, type DevServer } from '../../src/devserver';
import { tempDir } from '../support/command-io';
import { hasChromium, launchChromium, openPage } from './support/chromium';
import { startStaticServer, type StaticServer } from './support/static-server';

const KEY = 'phc_peerCaptureKey';
const POSTHOG_JS = fileURLToPath(new URL('../../node_modules/posthog-js/dist/array.full.no-external.js', import.meta.url));
const WAIT = { timeout: 30_000 };

describe.skipIf(!hasChromium)('PostHog SDKs capturing into hogtail dev', () => {
  let browser: Browser;
  let site: StaticServer;
  let dev: DevServer;
  const dataDir = tempDir();

  beforeAll(async () => {
    [browser, site, dev] = await Promise.all([launchChromium(), startStaticServer(), startDevServer({ dataDir })]);
    site.file('/posthog.js', POSTHOG_JS);
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await dev?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const named = (name: string) => dev.store.events().filter((event) => event.event === name);

  it('posthog-node: capture, identify, alias and groupIdentify arrive; the group is not a person', async () => {
    const peer = new PostHogNode(KEY, { host: dev.url, flushAt: 1, flushInterval: 0 });
    peer.capture({ distinctId: 'node-user', event: 'node event', properties: { plan: 'pro' } });
    peer.identify({ distinctId: 'node-user', properties: { email: 'n@example.com' } });
    peer.alias({ distinctId: 'node-user', alias: 'node-alias' });
    peer.groupIdentify({ groupType: 'company', groupKey: 'acme', properties: { name: 'Acme' } });
    await peer.shutdown();

    expect(named('node event')[0]).toMatchObject({ distinct_id: 'node-user', api_key: KEY, properties: { plan: 'pro' } });
    expect(named('$identify')).toHaveLength(1);
    expect(named('$create_alias')).toHaveLength(1);
    expect(named('$groupidentify')).toHaveLength(1);
    expect(dev.store.totalRejections()).toBe(0);
    const summary = dev.summary();
    expect(summary.groupsTotal).toBe(1);
    expect(summary.people).toBe(1);
  });

  it('posthog-js: its remote config is answered; page views, captures and identify arrive', async () => {
    // Headless Chromium's user agent reads as a bot, whose events posthog-js drops unless told.
    const config = {
      api_host: dev.url,
      opt_out_useragent_filter: true,
      autocapture: false,
      disable_session_recording: true,
      disable_surveys: true,
      persistence: 'memory',
    };
    site.page(
      '/js.html',
      `<!doctype html><script src="/posthog.js"></script><script>
        posthog.init(${JSON.stringify(KEY)}, ${JSON.stringify(config)});
        posthog.capture('js event', { color: 'blue' });
        posthog.identify('js-user', { plan: 'free' });
      </script>`,
    );
    const context = await browser.newContext();
    const { page, errors } = await openPage(context);
    await page.goto(`${site.url}/js.html`);
    await expect.poll(() => named('js event').length > 0 && named('$pageview').length > 0, WAIT).toBe(true);
    // posthog-js batches; leaving the page sends the rest by beacon.
    await page.goto('about:blank');
    await expect
      .poll(() => dev.store.events().some((event) => event.event === '$identify' && event.distinct_id === 'js-user'), WAIT)
      .toBe(true);
    expect(named('js event')[0]?.properties).toMatchObject({ color: 'blue', token: KEY });
    // Its GET /array/<key>/config was answered, not refused as an unknown path.
    expect(dev.store.totalRejections()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
