/**
 * The session replay tests' site: the built script tag and recorder file next to it, rrweb's
 * replayer on a page of its own, Chromium, and a collector whose flags answer carries the remote
 * config a test sets (`env.remote`).
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { defaultDecideResponse, type ReceivedEvent } from '../../../src/devserver';
import { repoRoot } from '../../support/built';
import { ensureBrowserBuild, RECORDER } from './build';
import { launchChromium } from './chromium';
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
