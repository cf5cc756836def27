/**
 * The session replay tests' site: the built script tag and recorder file next to it, rrweb's
 * replayer on a page of its own, Chromium, and a collector whose flags answer carries the remote
 * config a test sets (`env.remote`).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { defaultDecideResponse, type ReceivedEvent } from '../../../src/devserver';
import { repoRoot } from '../../support/built';
import { ensureBrowserBuild, RECORDER } from './build';
import { interact, replayPage } from '../replay-page';
import { launchChromium, openPage } from './chromium';
import { startRecordingCollector, type RecordingCollector } from './recording-collector';
import { KEY } from './site';
import { startStaticServer, type StaticServer } from './static-server';

export type Snapshot = ReceivedEvent & { properties: { $session_id: string; $snapshot_data: { type: number; timestamp: number }[] } };

export const snapshots = (collector: RecordingCollector) => collector.events.filter((event) => event.event === '$snapshot') as Snapshot[];

/** The script tag and init(); `config` over the test defaults. */
export function tagHead(collectorUrl: string, config: Record<string, unknown> = {}): string {
  const options = JSON.stringify({ api_host: collectorUrl, capture_pageview: false, autocapture: false, ...config });
  return `<script src="/hogtail.iife.js"></script><script>hogtail.init(${JSON.stringify(KEY)}, ${options});</script>`;
}

export interface ReplaySite {
  readonly browser: Browser;
  readonly server: StaticServer;
  readonly collector: RecordingCollector;
  /** What the flags answer carries besides the flags (set per test). */
  remote: Record<string, unknown>;
}

export function useReplaySite(): ReplaySite {
  const env = { remote: {} } as ReplaySite & { browser: Browser; server: StaticServer; collector: RecordingCollector };
  beforeAll(async () => {
    const [iife] = await Promise.all([ensureBrowserBuild(), launchChromium().then((b) => (env.browser = b))]);
    env.server = await startStaticServer();
    env.server.file('/hogtail.iife.js', iife);
    env.server.file('/hogtail.recorder.js', repoRoot + RECORDER);
    env.server.file('/rrweb-replay.js', repoRoot + 'node_modules/@rrweb/replay/dist/replay.umd.min.cjs');
    env.server.page('/player.html', '<!doctype html><html><head><script src="/rrweb-replay.js"></script></head><body></body></html>');
    env.collector = await startRecordingCollector({ decide: () => ({ ...defaultDecideResponse(), ...env.remote }) });
  });
  afterAll(async () => {
    await env.browser?.close();
    await env.server?.close();
    await env.collector?.close();
  });
  return env;
}

let visits = 0;

/** What a visit sent: its (last) session's snapshots, every snapshot that arrived during it, whether the recorder file loaded. */
export interface Visit {
  sent: Snapshot[];
  all: Snapshot[];
  loaded: boolean;
}

/**
 * Opens the realistic page with `config` while the flags answer carries `remote`, waits for the
 * flags, runs `during`, then leaves the page; resolves once the visit's last event arrived: a
 * beacon of the page's own, sent after the SDK's pagehide work (the recorder's beacon included),
 * whatever the user's consent says.
 */
export async function visitPage(
  env: ReplaySite,
  config: Record<string, unknown>,
  remote: Record<string, unknown>,
  during: (page: Page) => Promise<void> = interact,
  context?: BrowserContext,
): Promise<Visit> {
  const { browser, server, collector } = env;
  env.remote = remote;
  const n = ++visits;
  const before = snapshots(collector).length;
  const flags = `<script>hogtail.onFeatureFlags(function () { window.flagsIn = true; });</script>`;
  server.page(`/visit-${n}.html`, replayPage(tagHead(collector.url, config) + flags));
  const ownContext = context ?? (await browser.newContext());
  const { page, errors } = await openPage(ownContext);
  await page.goto(`${server.url}/visit-${n}.html`);
  await page.waitForFunction(() => (window as any).flagsIn === true);
  await during(page);
  const sessionId: string = await page.evaluate(() => (window as any).hogtail.get_session_id());
  const loaded: boolean = await page.evaluate(() =>
    performance.getEntriesByType('resource').some((entry) => entry.name.includes('hogtail.recorder.js')),
  );
  await page.evaluate(
    ([url, key, visit]) =>
      window.addEventListener('pagehide', () => {
        const batch = [{ event: 'visit end', distinct_id: 'test', properties: { n: visit } }];
        navigator.sendBeacon(`${url}/batch/`, new Blob([JSON.stringify({ api_key: key, batch })], { type: 'text/plain' }));
      }),
    [collector.url, KEY, n] as const,
  );
  await page.goto('about:blank');
  await collector.waitUntil(() => collector.events.some((event) => event.event === 'visit end' && event.properties.n === n), 15_000);
  expect(errors).toEqual([]);
  if (!context) await ownContext.close();
  const all = snapshots(collector).slice(before);
  return { sent: all.filter((event) => event.properties.$session_id === sessionId), all, loaded };
}
