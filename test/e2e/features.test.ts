// Features as a list with named hooks, and extensions (features whose code comes later), in real
// Chromium against a real collector whose flags answer carries remote config:
// - the built script tag: an extension pushed onto `window.__hogtailExtensions` (before the tag
//   loads, or after init) is set up with the public client and hears every hook; its names survive
//   the tag's minifier, which shortens internal names only;
// - the loader: a loadable extension's file is fetched from next to the script tag once the remote
//   config turns it on, and a file that cannot load is reported.
import { build } from 'esbuild';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultDecideResponse } from '../../src/devserver';
import { repoRoot } from '../support/built';
import { ensureBrowserBuild } from './support/build';
import { hasChromium, launchChromium, openPage } from './support/chromium';
import { startRecordingCollector, type RecordingCollector } from './support/recording-collector';
import { KEY } from './support/site';
import { startStaticServer, type StaticServer } from './support/static-server';
import { until } from './support/until';

/** The remote config the collector's flags answer carries, besides the flags. */
const REMOTE = { surveys: true, sessionRecording: { endpoint: '/s/' }, sample: true, missing: true };

/** An extension that records what it hears in `window.heard`, changes events and drops one. */
const PROBE = `{
  name: 'probe',
  setup(context) {
    const heard = (window.heard ||= []);
    heard.push(['setup', typeof context.client.capture, context.config.api_host]);
    return {
      beforeCapture(draft) {
        if (draft.input.event === 'dropped by probe') return false;
        draft.sdk.probe = 'added';
      },
      onRemoteConfig(config) { heard.push(['remote', config.surveys, config.sessionRecording]); },
      onIdentityChange(change) { heard.push(['identity', change.reason, change.distinctId]); },
      onLoaded() { heard.push(['loaded']); },
      onUnload() { context.client.capture('probe unload'); },
    };
  },
}`;

/** One whose hooks throw: reported, and the other features go on. */
const BROKEN = `{ name: 'broken', setup() { return { onRemoteConfig() { throw new Error('broken on purpose'); } }; } }`;

/** The script tag with init(); `early`: extensions pushed before the tag loads. */
function scriptTagPage(collectorUrl: string, early: string[]): string {
  // The remote config turns session replay on; the recorder's own file is not what this test is about (replay.test.ts).
  const config = JSON.stringify({
    api_host: collectorUrl,
    capture_pageview: false,
    autocapture: false,
    flush_at: 1,
    disable_session_recording: true,
  });
  const push = early.length
    ? `<script>(window.__hogtailExtensions = window.__hogtailExtensions || []).push(${early.join(', ')});</script>`
    : '';
  return `<!doctype html><html><head><meta charset="utf-8">${push}
<script src="/hogtail.iife.js"></script>
<script>
  window.errors = [];
  hogtail.on('error', (error) => errors.push(error.message));
  hogtail.init(${JSON.stringify(KEY)}, ${config});
</script></head><body>features</body></html>`;
}

/** A page whose client (from the sources) can load `sample` (served) and `missing` (not served) from /ext/. */
const LOADER_HARNESS = `
import { createClient } from './src/browser/client';
import { extensionsFeature, installExtensionGlobal, registerExtension } from './src/browser/features/extensions';
import { flagsFeature } from './src/browser/features/flags';
installExtensionGlobal();
const wanted = (name) => (config, remote) => !!remote && remote[name] === true;
window.makeClient = () => createClient({
  features_: [flagsFeature(), extensionsFeature({ sample: { file: 'sample.js', wanted: wanted('sample') }, missing: { file: 'missing.js', wanted: wanted('missing') } }, location.origin + '/ext/')],
  methods_: {},
  options_: [],
});
window.registerExtension = registerExtension;`;

const SAMPLE_FILE = `(window.__hogtailExtensions ||= []).push({
  name: 'sample',
  setup(context) { return { onLoaded() { window.sampleLoaded = context.config.api_host; } }; },
});`;

describe.skipIf(!hasChromium)('features and extensions', () => {
  let browser: Browser;
  let server: StaticServer;
  let collector: RecordingCollector;
  const requested: string[] = [];

  beforeAll(async () => {
    const [iife, harness] = await Promise.all([
      ensureBrowserBuild(),
      build({ stdin: { contents: LOADER_HARNESS, resolveDir: repoRoot, loader: 'ts' }, bundle: true, format: 'iife', write: false }),
      launchChromium().then((b) => (browser = b)),
    ]);
    server = await startStaticServer();
    server.file('/hogtail.iife.js', iife);
    // The remote config says the project has surveys: the tag loads its surveys file from next to it.
    server.file('/hogtail.surveys.js', repoRoot + 'dist/hogtail.surveys.js');
    const scripts = mkdtempSync(join(tmpdir(), 'hogtail-features-'));
    writeFileSync(join(scripts, 'loader.js'), harness.outputFiles[0]!.text);
    writeFileSync(join(scripts, 'sample.js'), SAMPLE_FILE);
    server.file('/loader.js', join(scripts, 'loader.js'));
    server.file('/ext/sample.js', join(scripts, 'sample.js'));
    collector = await startRecordingCollector({ decide: () => ({ ...defaultDecideResponse(), ...REMOTE }) });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await collector?.close();
  });

  it('the script tag: an extension pushed before it loads hears every hook, and one that throws is reported', async () => {
    server.page('/tag.html', scriptTagPage(collector.url, [PROBE, BROKEN]));
    const context = await browser.newContext();
    const { page, errors } = await openPage(context);
    await page.goto(server.url + '/tag.html');

    await until(page, () => (window as any).heard?.some((entry: unknown[]) => entry[0] === 'remote'), 'the remote config');
    const ids = await page.evaluate(() => {
      const h = (window as any).hogtail;
      h.capture('kept', { i: 1 });
      h.capture('dropped by probe', { i: 2 });
      h.identify('user-1');
      h.reset();
      return { after: h.get_distinct_id(), dropped: h.stats().dropped.before_send };
    });
    expect(ids.dropped).toBe(1);
    // identify() and reset() ask for fresh flags: more remote configs may follow, each heard again.
    const heard: unknown[][] = await page.evaluate(() => (window as any).heard);
    expect(heard.filter((entry) => entry[0] !== 'remote')).toEqual([
      ['setup', 'function', collector.url],
      ['loaded'],
      ['identity', 'identify', 'user-1'],
      ['identity', 'reset', ids.after],
    ]);
    expect(heard[2]).toEqual(['remote', true, { endpoint: '/s/' }]);
    const reported: string[] = await page.evaluate(() => (window as any).errors);
    expect(new Set(reported)).toEqual(new Set(['broken: onRemoteConfig failed (Error: broken on purpose); the other features go on']));

    await collector.waitForDistinct('kept', 1, 10_000);
    expect(collector.events.find((event) => event.event === 'kept')!.properties).toMatchObject({ i: 1, probe: 'added' });
    // onUnload runs before the unload beacon: what it captures leaves with the page.
    await page.goto('about:blank');
    expect(await collector.waitForDistinct('probe unload', 1, 10_000)).toBe(1);
    expect(collector.events.some((event) => event.event === 'dropped by probe')).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the script tag: an extension pushed after init() is set up at once, onLoaded included', async () => {
    server.page('/late.html', scriptTagPage(collector.url, []));
    const context = await browser.newContext();
    const { page, errors } = await openPage(context);
    await page.goto(server.url + '/late.html');
    await page.evaluate(`window.__hogtailExtensions.push(${PROBE})`);
    const heard = await until(page, () => (window as any).heard?.length >= 2 && (window as any).heard, 'the late extension');
    expect(heard.slice(0, 2)).toEqual([['setup', 'function', collector.url], ['loaded']]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the loader: the file of an extension the remote config turns on is loaded from next to the script, a missing one reported', async () => {
    server.page('/loader.html', '<!doctype html><script src="/loader.js"></script>');
    const context = await browser.newContext();
    const { page, errors } = await openPage(context);
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    await page.goto(server.url + '/loader.html');
    await page.evaluate(
      ([key, host]) => {
        const client = (window as any).makeClient();
        (window as any).errors = [];
        client.on('error', (error: Error) => (window as any).errors.push(error.message));
        client.init(key, { api_host: host, capture_pageview: false });
      },
      [KEY, collector.url] as const,
    );
    expect(await until(page, () => (window as any).sampleLoaded, 'the sample extension')).toBe(collector.url);
    const reported = await until(page, () => (window as any).errors.length > 0 && (window as any).errors, 'the missing file reported');
    expect(reported).toEqual([
      `extension missing could not be loaded from ${server.url}/ext/missing.js; it stays off (host the file there, or bundle it: registerExtension from hogtail/missing)`,
    ]);
    expect(requested.filter((path) => path.startsWith('/ext/')).sort()).toEqual(['/ext/missing.js', '/ext/sample.js']);
    expect(errors).toEqual([]);
    await context.close();
  });
});
