/**
 * One test site: the static server with the IIFE at /hogtail.iife.js, pages that load it, and the
 * recording collector on another port. Tests capture events named per test with a property `i`,
 * and check what arrived by `i` (resends share a uuid; a lost event is a missing `i`).
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchChromium } from './chromium';
import type { ReceivedEvent } from '../../../src/devserver';
import { ensureBrowserBuild } from './build';
import { startRecordingCollector, type RecordingCollector } from './recording-collector';
import { startStaticServer, type StaticServer } from './static-server';

export const KEY = 'phc_e2eProjectKey';

export interface Site {
  server: StaticServer;
  collector: RecordingCollector;
  close(): Promise<void>;
}

export async function startSite(): Promise<Site> {
  const iife = await ensureBrowserBuild();
  const server = await startStaticServer();
  const collector = await startRecordingCollector();
  server.file('/hogtail.iife.js', iife);
  return {
    server,
    collector,
    async close() {
      await server.close();
      await collector.close();
    },
  };
}

/** A page that loads the IIFE and calls init() with `config` (JSON) merged over test defaults. */
export function sdkPage(collectorUrl: string, config: Record<string, unknown> = {}, head = ''): string {
  const options = JSON.stringify({ api_host: collectorUrl, capture_pageview: false, ...config });
  return `<!doctype html><html><head><meta charset="utf-8">${head}
<script src="/hogtail.iife.js"></script>
<script>hogtail.init(${JSON.stringify(KEY)}, ${options});</script>
</head><body>test page</body></html>`;
}

/** For each `i` of events named `name`: the distinct uuids it arrived with. */
export function arrivals(events: readonly ReceivedEvent[], name: string): Map<number, Set<string>> {
  const byIndex = new Map<number, Set<string>>();
  for (const event of events) {
    if (event.event !== name) continue;
    const i = event.properties.i as number;
    if (!byIndex.has(i)) byIndex.set(i, new Set());
    byIndex.get(i)!.add(event.uuid ?? '');
  }
  return byIndex;
}

/** Waits until `count` distinct `i` of `name` arrived; returns the arrivals either way. */
export async function waitForIndexes(
  collector: RecordingCollector,
  name: string,
  count: number,
  timeoutMs: number,
): Promise<Map<number, Set<string>>> {
  await collector.waitUntil(() => arrivals(collector.events, name).size >= count, timeoutMs);
  return arrivals(collector.events, name);
}

/** Indexes 0..count-1 that never arrived, and indexes that arrived under more than one uuid. */
export function problems(seen: Map<number, Set<string>>, count: number): { missing: number[]; reissued: number[] } {
  const missing: number[] = [];
  const reissued: number[] = [];
  for (let i = 0; i < count; i++) {
    const uuids = seen.get(i);
    if (!uuids) missing.push(i);
    else if (uuids.size > 1) reissued.push(i);
  }
  return { missing, reissued };
}

/**
 * One Chromium and one site (page server + collector) for a describe block, closed after it.
 * Read `env.browser` / `env.site` inside tests (they exist once beforeAll has run).
 */
export function useChromiumSite(): { readonly browser: Browser; readonly site: Site } {
  const env = {} as { browser: Browser; site: Site };
  beforeAll(async () => {
    [env.browser, env.site] = await Promise.all([launchChromium(), startSite()]);
  });
  afterAll(async () => {
    await env.browser?.close();
    await env.site?.close();
  });
  return env;
}
