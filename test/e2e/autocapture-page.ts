/**
 * Pages for the autocapture suites: hogtail's script tag (and, for parity checks, posthog-js's
 * array.js on the same page, its events kept in `window.__ph` by before_send instead of sent), plus
 * a record of every byte the page sent, decoded, so a test can search all of it for secrets.
 */
import { gunzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { repoRoot } from '../support/built';
import { KEY, type Site } from './support/site';

export const POSTHOG_JS = repoRoot + 'node_modules/posthog-js/dist/array.js';

export interface PageOptions {
  config?: Record<string, unknown>;
  /** Load posthog-js too, with autocapture on and nothing sent. */
  posthog?: boolean;
}

export function autocapturePage(site: Site, body: string, options: PageOptions = {}): string {
  site.server.file('/posthog.js', POSTHOG_JS);
  const config = JSON.stringify({ api_host: site.collector.url, capture_pageview: false, flush_at: 1, ...options.config });
  // posthog-js first: hogtail then leaves window.posthog to it (a real posthog-js is never replaced).
  const posthog = options.posthog
    ? `<script src="/posthog.js"></script>
<script>window.__ph = []; posthog.init(${JSON.stringify(KEY)}, { api_host: ${JSON.stringify(site.collector.url)}, autocapture: true,
  capture_pageview: false, capture_pageleave: false, disable_session_recording: true, disable_surveys: true,
  advanced_disable_flags: true, persistence: 'memory', opt_out_useragent_filter: true, capture_dead_clicks: false,
  rageclick: false, before_send: (event) => { window.__ph.push(event); return null; } });</script>`
    : '';
  return `<!doctype html><html><head><meta charset="utf-8">
<style>body { font: 16px sans-serif } button, a, input, [role=button] { margin: 6px; padding: 6px }</style>
${posthog}
<script src="/hogtail.iife.js"></script>
<script>hogtail.init(${JSON.stringify(KEY)}, ${config});</script>
</head><body>${body}</body></html>`;
}

/** Every request body the page sends from now on (gzip undone), as text. */
export function recordBodies(page: Page): string[] {
  const bodies: string[] = [];
  page.on('request', (request) => {
    const raw = request.postDataBuffer();
    if (!raw) return;
    bodies.push((raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw).toString('utf8'));
  });
  return bodies;
}

export interface Captured {
  event: string;
  type: unknown;
  chain: string;
  text: unknown;
}

/** hogtail's autocapture events as the collector received them, once `count` are in (or after 10 s). */
export async function hogtailEvents(site: Site, count: number, names = ['$autocapture', '$rageclick']): Promise<Captured[]> {
  const events = () => site.collector.events.filter((e) => names.includes(e.event));
  await site.collector.waitUntil(() => events().length >= count, 10_000);
  return events().map((e) => ({
    event: e.event,
    type: e.properties.$event_type,
    chain: e.properties.$elements_chain as string,
    text: e.properties.$el_text,
  }));
}

/** posthog-js's autocapture events in the page. */
export async function posthogEvents(page: Page): Promise<Captured[]> {
  const events = await page.evaluate(() => (window as unknown as { __ph: { event: string; properties: Record<string, unknown> }[] }).__ph);
  return events
    .filter((e) => e.event === '$autocapture')
    .map((e) => ({
      event: e.event,
      type: e.properties.$event_type,
      chain: e.properties.$elements_chain as string,
      text: e.properties.$el_text,
    }));
}
