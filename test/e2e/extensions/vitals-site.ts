/**
 * What the extension tests share: the built script tag and the built extension files served
 * side by side (as a site deploys them), a collector whose flags answer carries the remote config
 * that turns products on, and a page with a large image, a layout shift, an inert element and a
 * button that changes the page.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { defaultDecideResponse } from '../../../src/devserver';
import { repoRoot } from '../../support/built';
import { ensureBrowserBuild } from '../support/build';
import { launchChromium } from '../support/chromium';
import { startRecordingCollector, type RecordingCollector } from '../support/recording-collector';
import { KEY } from '../support/site';
import { startStaticServer, type StaticServer } from '../support/static-server';

export const ALL_ON = { capturePerformance: { web_vitals: true }, heatmaps: true, captureDeadClicks: true };
export const ALL_OFF = { capturePerformance: false, heatmaps: false, captureDeadClicks: false };

export interface VitalsSite {
  browser: Browser;
  server: StaticServer;
  collector: RecordingCollector;
  /** The remote config the next flags answers carry. */
  remote: Record<string, unknown>;
  /** Paths the pages asked the static server for. */
  requested: string[];
  close(): Promise<void>;
}

/**
 * A PNG of random pixels: Chromium leaves low-entropy images (a flat colour) out of LCP, so the
 * large image must carry detail to be the page's largest contentful paint.
 */
function noisePng(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const check = Buffer.alloc(4);
    check.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, check]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let i = 0; i < rows.length; i++) rows[i] = i % (width * 3 + 1) === 0 ? 0 : (Math.random() * 256) | 0;
  const signature = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

export async function startVitalsSite(): Promise<VitalsSite> {
  const [iife, browser] = await Promise.all([ensureBrowserBuild(), launchChromium()]);
  const server = await startStaticServer();
  server.file('/hogtail.iife.js', iife);
  for (const name of ['web-vitals', 'heatmaps', 'dead-clicks']) server.file(`/hogtail.${name}.js`, `${repoRoot}dist/hogtail.${name}.js`);
  server.file('/posthog-array.js', `${repoRoot}node_modules/posthog-js/dist/array.full.js`);
  const images = mkdtempSync(join(tmpdir(), 'hogtail-vitals-'));
  writeFileSync(join(images, 'big.png'), noisePng(480, 320));
  server.file('/big.png', join(images, 'big.png'), 'image/png');
  const site: VitalsSite = {
    browser,
    server,
    collector: undefined as unknown as RecordingCollector,
    remote: ALL_ON,
    requested: [],
    close: async () => {
      await browser.close();
      await server.close();
      await site.collector.close();
    },
  };
  site.collector = await startRecordingCollector({ decide: () => ({ ...defaultDecideResponse(), ...site.remote }) });
  return site;
}

/** The page's body: a large image, room to scroll, an inert paragraph, a fixed bar and a button that changes the page. */
export const BODY = `
<div id="shifted"></div>
<img id="hero" src="/big.png" width="900" height="600" alt="">
<p id="inert" style="height:40px;margin:0">nothing happens here</p>
<button id="changer" onclick="document.getElementById('out').textContent = 'changed ' + Date.now()">change</button>
<div id="out"></div>
<div id="fixed" style="position:fixed;top:0;right:0;width:60px;height:30px;background:#ddd">bar</div>
<div style="height:2400px"></div>
<script>
  // A layout shift no input caused: the image pushed down once it is painted.
  const shift = () => requestAnimationFrame(() => setTimeout(() => {
    document.getElementById('shifted').style.height = '120px';
    requestAnimationFrame(() => setTimeout(() => (window.shifted = true)));
  }));
  const hero = document.getElementById('hero');
  hero.complete ? shift() : hero.addEventListener('load', shift);
</script>`;

/**
 * Records each extension file as it finishes running (a script's load event fires right after it
 * ran, and the file sets its extension up as it runs): `window.ran` lists their names.
 */
export const RAN = `<script>document.addEventListener('load', (e) => { const src = e.target && e.target.src; if (src) (window.ran = window.ran || []).push(src.split('/').pop()); }, true);</script>`;

/** Resolves once the page has run the extension file `file` (e.g. hogtail.heatmaps.js). */
export async function ran(page: Page, file: string): Promise<void> {
  await page.waitForFunction((name) => ((window as any).ran ?? []).includes(name), file);
}

/** A page on the script tag with `config` (products turned on by the remote config unless it says). */
export function hogtailPage(site: VitalsSite, config: Record<string, unknown> = {}): string {
  const options = JSON.stringify({ api_host: site.collector.url, flush_at: 1, ...config });
  return `<!doctype html><html><head><meta charset="utf-8">${RAN}
<script src="/hogtail.iife.js"></script>
<script>window.errors = []; hogtail.on('error', (e) => errors.push(e.message)); hogtail.init(${JSON.stringify(KEY)}, ${options});</script>
</head><body style="margin:0">${BODY}</body></html>`;
}

/** One page with both: posthog-js's script first, then hogtail's tag (which leaves a real posthog-js its global). */
export function bothPage(site: VitalsSite, hogtail: Record<string, unknown>, posthog: Record<string, unknown>): string {
  const ours = JSON.stringify({ api_host: site.collector.url, flush_at: 1, ...hogtail });
  const theirs = JSON.stringify({ ...POSTHOG_DEFAULTS, api_host: site.collector.url, ...posthog });
  return `<!doctype html><html><head><meta charset="utf-8">
<script src="/posthog-array.js"></script>
<script>posthog.init(${JSON.stringify(KEY)}, ${theirs});</script>
<script src="/hogtail.iife.js"></script>
<script>window.errors = []; hogtail.on('error', (e) => errors.push(e.message)); hogtail.init(${JSON.stringify(KEY)}, ${ours});</script>
</head><body style="margin:0">${BODY}</body></html>`;
}

// Headless Chromium reads as a bot to posthog-js, which drops a bot's events unless told not to.
const POSTHOG_DEFAULTS = {
  opt_out_useragent_filter: true,
  autocapture: false,
  disable_session_recording: true,
  disable_surveys: true,
  persistence: 'memory',
};

/** The same page on posthog-js's own script (its array.full.js, which carries every extension). */
export function posthogPage(site: VitalsSite, config: Record<string, unknown> = {}): string {
  const options = JSON.stringify({ ...POSTHOG_DEFAULTS, api_host: site.collector.url, ...config });
  return `<!doctype html><html><head><meta charset="utf-8">
<script src="/posthog-array.js"></script>
<script>posthog.init(${JSON.stringify(KEY)}, ${options});</script>
</head><body style="margin:0">${BODY}</body></html>`;
}

/**
 * Hides the page as a tab switch does, as far as the page can tell: headless Chromium has no
 * other tab to switch to, and a navigation away fires pagehide without visibilitychange here.
 */
export async function hide(page: Page): Promise<void> {
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    Object.defineProperty(document, 'hidden', { value: true, configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  });
}

/** What `check` finds once the collector has it (checked after each request), or an error naming `what`. */
export async function arrived<T>(site: VitalsSite, check: () => T | false | undefined, what: string, timeoutMs = 15_000): Promise<T> {
  const found = await site.collector.waitUntil(check, timeoutMs);
  if (!found) throw new Error(`${what} did not arrive`);
  return found;
}

export { until } from '../support/until';
