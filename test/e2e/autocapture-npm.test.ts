// The npm build in Chromium, loaded as the ES module an app's bundler would ship
// (dist/browser/index.js): autocapture arrives as its own chunk at init() and captures real clicks;
// with `autocapture: false` the chunk is never even requested.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/built';
import { hogtailEvents } from './autocapture-page';
import { hasChromium, openPage } from './support/chromium';
import { KEY, useChromiumSite } from './support/site';

const page = (collectorUrl: string, config: Record<string, unknown>) => `<!doctype html><html><head><meta charset="utf-8">
<script type="module">
  import posthog from '/browser/index.js';
  window.ph = posthog;
  posthog.init(${JSON.stringify(KEY)}, ${JSON.stringify({ api_host: collectorUrl, capture_pageview: false, flush_at: 1, ...config })});
</script></head>
<body><div class="toolbar"><button id="save" class="btn">Save <span>draft</span></button></div></body></html>`;

describe.skipIf(!hasChromium)('autocapture from the npm build', () => {
  const env = useChromiumSite();

  it.each([
    ['on by default: the chunk loads and clicks arrive', {}, true],
    ['autocapture: false: the chunk is never requested', { autocapture: false }, false],
  ])('%s', async (_, config, on) => {
    const { site } = env;
    site.collector.clear();
    // Every file of the npm browser build: the entry imports its chunks (client, errors) statically.
    for (const file of readdirSync(repoRoot + 'dist/browser').filter((name) => name.endsWith('.js')))
      site.server.file('/browser/' + file, repoRoot + 'dist/browser/' + file);
    site.server.page('/npm.html', page(site.collector.url, config));
    const context = await env.browser.newContext();
    const { page: tab, errors } = await openPage(context);
    const requested: string[] = [];
    tab.on('request', (request) => requested.push(new URL(request.url()).pathname));
    await tab.goto(site.server.url + '/npm.html');
    await tab.waitForFunction(() => (window as any).ph?.get_distinct_id?.());
    // The chunk arrives after init(): the page's own import of it settles once the module has run,
    // and a task later the client has started it.
    // (A string: vitest would rewrite an import() written in a function.)
    if (on) await tab.evaluate("import('/browser/autocapture.js').then(() => new Promise((resolve) => setTimeout(resolve)))");
    await tab.click('#save span');
    await tab.evaluate(() => (window as any).ph.capture('done'));
    await site.collector.waitForEvents(on ? 2 : 1, 10_000);
    const clicks = await hogtailEvents(site, on ? 1 : 0);
    expect(clicks.map((e) => e.chain.split(';').map((entry) => entry.split(':')[0]))).toEqual(
      on ? [['span', 'button.btn', 'div.toolbar', 'body']] : [],
    );
    expect(requested.includes('/browser/autocapture.js')).toBe(on);
    expect(errors).toEqual([]);
    await context.close();
  });
});
