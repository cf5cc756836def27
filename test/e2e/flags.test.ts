// Feature flags in the script tag, in real Chromium, against the collector serving /flags from flag
// definitions with PostHog's evaluation: the request is a CORS simple one (no preflight), flags
// reach onFeatureFlags, later events carry them, $feature_flag_called goes once with the answer's
// request id, and a reloaded page has the stored flags before the server answers.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFlagsDecide, type DecideRequest, type Exchange } from '../../src/devserver';
import { sendText } from '../../src/devserver/http/respond';
import { manyFlagsAnswer } from '../support/many-flags';
import { ensureBrowserBuild } from './support/build';
import { hasChromium, launchChromium, openPage } from './support/chromium';
import { startRecordingCollector, type RecordingCollector } from './support/recording-collector';
import { sdkPage } from './support/site';
import { startStaticServer, type StaticServer } from './support/static-server';

const DEFINITIONS = [
  { key: 'beta', rollout_percentage: 100 },
  { key: 'never', rollout_percentage: 0 },
  { key: 'exp', rollout_percentage: 100, variants: [{ key: 'test', rollout_percentage: 100 }], payloads: { test: '{"color":"red"}' } },
];

describe.skipIf(!hasChromium)('feature flags in the browser', () => {
  let browser: Browser;
  let server: StaticServer;
  let collector: RecordingCollector;
  const decides: DecideRequest[] = [];
  /** `METHOD url` of every request the collector got. */
  const requests: string[] = [];
  // While set, decide answers nothing: the reloaded page must manage with what it stored.
  let stall: Promise<void> | undefined;
  let unstall = () => {};

  beforeAll(async () => {
    const flags = createFlagsDecide({ definitions: DEFINITIONS });
    const [iife] = await Promise.all([ensureBrowserBuild(), launchChromium().then((b) => (browser = b))]);
    server = await startStaticServer();
    server.file('/hogtail.iife.js', iife);
    collector = await startRecordingCollector({
      async decide(request, headers) {
        decides.push(request);
        await stall;
        return flags(request, headers);
      },
    });
    collector.setFault(watch);
  });
  const watch = (exchange: Exchange) => {
    requests.push(`${exchange.req.method} ${exchange.req.url}`);
    return false; // only watching: every request is answered as usual
  };
  afterAll(async () => {
    unstall();
    await browser?.close();
    await server?.close();
    await collector?.close();
  });

  it('/flags → onFeatureFlags → $feature/… on events, $feature_flag_called once, stored flags used at once after reload', async () => {
    server.page('/flags.html', sdkPage(collector.url, { flush_at: 1 }));
    const context = await browser.newContext();
    const { page, errors } = await openPage(context);
    await page.goto(server.url + '/flags.html');

    const heard = await page.evaluate(
      () =>
        new Promise((resolve) =>
          (window as any).hogtail.onFeatureFlags((active: string[], flags: unknown) => resolve({ active: active.sort(), flags })),
        ),
    );
    expect(heard).toEqual({ active: ['beta', 'exp'], flags: { beta: true, never: false, exp: 'test' } });
    expect(decides[0]!.api_key).toBe('phc_e2eProjectKey');
    // The page is on another origin than the collector: a header beyond the CORS-safelisted ones
    // (Content-Type: application/json) would have cost an OPTIONS preflight first.
    expect(requests.filter((request) => !request.startsWith('POST /batch/'))).toEqual(['POST /flags/?v=2&config=true']);

    const answers = await page.evaluate(() => {
      const h = (window as any).hogtail;
      h.capture('after flags', { i: 0 });
      return [
        h.getFeatureFlag('exp'),
        h.isFeatureEnabled('exp'),
        h.getFeatureFlag('exp'),
        h.isFeatureEnabled('never'),
        h.getFeatureFlagPayload('exp'),
      ];
    });
    expect(answers).toEqual(['test', true, 'test', false, { color: 'red' }]);
    await page.evaluate(() => (window as any).hogtail.flush());
    await collector.waitForDistinct('$feature_flag_called', 2, 10_000);

    const [event] = collector.events.filter((e) => e.event === 'after flags');
    expect(event!.properties).toMatchObject({ '$feature/beta': true, '$feature/never': false, '$feature/exp': 'test' });
    expect((event!.properties.$active_feature_flags as string[]).sort()).toEqual(['beta', 'exp']);

    // Reload with decide stalled: the stored flags are there at once, and the stored dedup holds.
    stall = new Promise((resolve) => (unstall = resolve));
    const before = decides.length;
    await page.reload();
    const reloaded = await page.evaluate(() => {
      const h = (window as any).hogtail;
      let flags: unknown;
      h.onFeatureFlags((_: unknown, all: unknown) => (flags = all));
      const value = h.getFeatureFlag('exp');
      h.capture('after reload', { i: 1 });
      return h.flush().then(() => ({ flags, value }));
    });
    expect(reloaded).toEqual({ flags: { beta: true, never: false, exp: 'test' }, value: 'test' });
    // It did ask, and got no answer yet. The ask and the batch leave together: on a loaded machine
    // the collector may read the batch first, so wait for the ask rather than expect it already.
    for (const deadline = Date.now() + 10_000; decides.length <= before && Date.now() < deadline; )
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(decides.length).toBeGreaterThan(before);
    await collector.waitForDistinct('after reload', 1, 10_000);
    const [later] = collector.events.filter((e) => e.event === 'after reload');
    expect(later!.properties['$feature/exp']).toBe('test');
    const called = collector.events.filter((e) => e.event === '$feature_flag_called');
    expect(called.map((e) => [e.properties.$feature_flag, e.properties.$feature_flag_response]).sort()).toEqual([
      ['exp', 'test'],
      ['never', false],
    ]);
    for (const event of called) expect(event.properties.$feature_flag_request_id).toMatch(/^hogtail-dev-\d+$/);
    expect(requests.some((request) => request.startsWith('OPTIONS'))).toBe(false);
    unstall();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("reads all 400 flags of a 140 KB /flags answer (a flags answer has its own cap, not the batch answer's 64 KiB)", async () => {
    const many = manyFlagsAnswer(400);
    collector.setFault((exchange) => {
      if (exchange.outcome.kind !== 'decide') return watch(exchange);
      sendText(exchange.req, exchange.res, 200, many.body, { 'Content-Type': 'application/json' });
      return true;
    });
    try {
      server.page('/many-flags.html', sdkPage(collector.url));
      const context = await browser.newContext();
      const { page, errors } = await openPage(context);
      await page.goto(server.url + '/many-flags.html');
      const flags = await page.evaluate(
        () => new Promise((resolve) => (window as any).hogtail.onFeatureFlags((_: unknown, all: unknown) => resolve(all))),
      );
      expect(flags).toEqual(many.values);
      expect(errors).toEqual([]);
      await context.close();
    } finally {
      collector.setFault(watch);
    }
  });
});
