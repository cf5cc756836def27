// `hogtail dev` with a page on the script tag, in real Chromium: its remote config turns web
// vitals and heatmaps on with no app code, and its live page then shows the page's web vitals and,
// for the page's URL, the clicks drawn over the outline of its clickable elements.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevServer, type DevServer } from '../../../src/devserver';
import { repoRoot } from '../../support/built';
import { ensureBrowserBuild } from '../support/build';
import { hasChromium, launchChromium, openPage } from '../support/chromium';
import { KEY } from '../support/site';
import { startStaticServer, type StaticServer } from '../support/static-server';
import { BODY, hide, RAN, ran } from './vitals-site';
import type { Browser } from 'playwright-core';

const WAIT = { timeout: 30_000 };

describe.skipIf(!hasChromium)('hogtail dev: web vitals and heatmaps on its live page', () => {
  let browser: Browser;
  let dev: DevServer;
  let site: StaticServer;
  const dataDir = mkdtempSync(join(tmpdir(), 'hogtail-dev-insights-'));

  beforeAll(async () => {
    const [iife] = await Promise.all([ensureBrowserBuild(), launchChromium().then((b) => (browser = b))]);
    [dev, site] = await Promise.all([startDevServer({ dataDir }), startStaticServer()]);
    site.file('/hogtail.iife.js', iife);
    for (const name of ['web-vitals', 'heatmaps']) site.file(`/hogtail.${name}.js`, `${repoRoot}dist/hogtail.${name}.js`);
    const config = JSON.stringify({ api_host: dev.url, flush_at: 1, capture_pageview: false });
    site.page(
      '/shop.html',
      `<!doctype html><html><head><meta charset="utf-8">${RAN}<script src="/hogtail.iife.js"></script>
<script>hogtail.init(${JSON.stringify(KEY)}, ${config});</script></head><body style="margin:0">${BODY}</body></html>`,
    );
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await dev?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows the page’s web vitals and its clicks over the outline of its clickable elements', async () => {
    const context = await browser.newContext();
    const { page: shop, errors } = await openPage(context);
    await shop.goto(site.url + '/shop.html');
    await ran(shop, 'hogtail.heatmaps.js');
    await shop.waitForFunction(() => (window as any).shifted);
    const button = (await shop.locator('#changer').boundingBox())!;
    await shop.mouse.click(button.x + 5, button.y + 5);
    await hide(shop);
    await shop.goto('about:blank');

    const { page: devPage, errors: devErrors } = await openPage(await browser.newContext());
    await devPage.goto(dev.url + '/');
    const row = devPage.locator('#vitals tbody tr', { hasText: '/shop.html' });
    await row.waitFor(WAIT);
    const cells = await row.locator('td').allTextContents();
    expect(cells[0]).toContain('/shop.html');
    // LCP, CLS and FCP each have a value (INP only when the browser reported one).
    for (const cell of cells.slice(1, 4)) expect(cell).toMatch(/^\d/);

    const heatmap = devPage.locator('#heatmaps .heatmap', { hasText: '/shop.html' });
    await heatmap.waitFor(WAIT);
    expect(await heatmap.locator('.muted').textContent()).toBe('1 click');
    // The click's dot is drawn where the button is, scaled to the panel's canvas.
    const drawn = await heatmap.locator('canvas').evaluate(
      (canvas: HTMLCanvasElement, at) => {
        const scale = canvas.width / at.pageWidth;
        const pixel = canvas.getContext('2d')!.getImageData(Math.round(at.x * scale), Math.round(at.y * scale), 1, 1).data;
        return { red: pixel[0]!, alpha: pixel[3]! };
      },
      { x: button.x + 5, y: button.y + 5, pageWidth: (await dev.summary()).insights.heatmaps[0]!.outline!.width },
    );
    expect(drawn.alpha).toBeGreaterThan(0);
    expect(drawn.red).toBeGreaterThan(150);
    expect(errors).toEqual([]);
    expect(devErrors).toEqual([]);
    await context.close();
  });
});
