// posthog-js (the real SDK, in real Chromium) pointed at `hogtail dev` gets its flags from
// POST /flags/?v=2, with the same values hogtail's Node client and the dev server's own evaluation
// give the same user.
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevServer, type DevServer } from '../../src/devserver';
import { PostHog } from '../../src/node';
import { tempDir } from '../support/command-io';
import { hasChromium, launchChromium, openPage } from './support/chromium';
import { startStaticServer, type StaticServer } from './support/static-server';

const KEY = 'phc_e2eProjectKey';
const FLAGS = [
  { key: 'half', rollout_percentage: 50 },
  {
    key: 'checkout',
    rollout_percentage: 100,
    variants: [
      { key: 'control', rollout_percentage: 50 },
      { key: 'test', rollout_percentage: 50 },
    ],
    payloads: { control: { price: 10 }, test: { price: 9 } },
  },
  { key: 'off', active: false },
];
const POSTHOG_JS = fileURLToPath(new URL('../../node_modules/posthog-js/dist/array.full.no-external.js', import.meta.url));

function page(devUrl: string, distinctId: string): string {
  const config = {
    api_host: devUrl,
    bootstrap: { distinctID: distinctId },
    autocapture: false,
    capture_pageview: false,
    disable_session_recording: true,
    disable_surveys: true,
    persistence: 'memory',
  };
  return `<!doctype html><script src="/posthog.js"></script><script>
    posthog.init(${JSON.stringify(KEY)}, ${JSON.stringify(config)});
  </script>`;
}

describe.skipIf(!hasChromium)('posthog-js against hogtail dev', () => {
  let browser: Browser;
  let site: StaticServer;
  let dev: DevServer;
  const dataDir = tempDir();

  beforeAll(async () => {
    [browser, site, dev] = await Promise.all([launchChromium(), startStaticServer(), startDevServer({ dataDir, flags: FLAGS })]);
    site.file('/posthog.js', POSTHOG_JS);
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await dev?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('reads the same flag values and payloads from /flags as hogtail does', async () => {
    const hogtail = new PostHog(KEY, { host: dev.url, flushOnExitTimeout: 0 });
    const context = await browser.newContext();
    try {
      for (const user of ['user-1', 'user-2', 'user-3', 'user-4']) {
        site.page(`/${user}.html`, page(dev.url, user));
        const { page: tab, errors } = await openPage(context);
        const flagsRequest = tab.waitForRequest((request) => new URL(request.url()).pathname.startsWith('/flags'));
        await tab.goto(`${site.url}/${user}.html`);
        expect(new URL((await flagsRequest).url()).pathname).toBe('/flags/');
        const seen = await tab.evaluate(
          () =>
            new Promise<Record<string, unknown>>((resolve) =>
              (window as any).posthog.onFeatureFlags(() => {
                const ph = (window as any).posthog;
                resolve({
                  half: ph.getFeatureFlag('half', { send_event: false }),
                  checkout: ph.getFeatureFlag('checkout', { send_event: false }),
                  off: ph.getFeatureFlag('off', { send_event: false }),
                  payload: ph.getFeatureFlagPayload('checkout'),
                });
              }),
            ),
        );
        const options = { sendFeatureFlagEvents: false };
        expect(seen, user).toEqual({
          half: await hogtail.getFeatureFlag('half', user, options),
          checkout: await hogtail.getFeatureFlag('checkout', user, options),
          off: false,
          payload: await hogtail.getFeatureFlagPayload('checkout', user),
        });
        expect(seen.checkout).toBe(dev.flags.evaluate(user).featureFlags['checkout']);
        expect(errors).toEqual([]);
        await tab.close();
      }
    } finally {
      await context.close();
      await hogtail.shutdown(2000);
    }
  });
});
