// `$pageleave` when a tab closes and on reload (issue 13), with nothing lost: the events captured
// just before leaving all arrive (with the closing page, or with the next page of the origin), and
// each left page yields exactly one `$pageleave` (a resend shares its uuid, so uuids are counted).
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ReceivedEvent } from '../../src/devserver';
import { hasChromium, openPage } from './support/chromium';
import { problems, sdkPage, useChromiumSite, waitForIndexes } from './support/site';

const PAGELEAVE = { capture_pageleave: true };

function captureRange(page: Page, name: string, from: number, to: number): Promise<void> {
  return page.evaluate(
    ([event, start, end]) => {
      for (let i = start; i < end; i++) (window as any).hogtail.capture(event, { i });
    },
    [name, from, to] as const,
  );
}

/** Distinct `$pageleave` uuids per left URL. */
function pageleaves(events: readonly ReceivedEvent[]): Map<string, Set<string>> {
  const byUrl = new Map<string, Set<string>>();
  for (const event of events) {
    if (event.event !== '$pageleave') continue;
    const url = String(event.properties.$current_url);
    if (!byUrl.has(url)) byUrl.set(url, new Set());
    byUrl.get(url)!.add(event.uuid ?? '');
  }
  return byUrl;
}

describe.skipIf(!hasChromium)('$pageleave', () => {
  const env = useChromiumSite();
  // Filtered by URL: a page of an earlier test, closed with its context, may still be reporting.
  const leavesOf = async (url: string, count: number): Promise<number[]> => {
    const leaves = () => (pageleaves(env.site.collector.events).get(url) ?? new Set()).size;
    await env.site.collector.waitUntil(() => leaves() >= count, 10_000);
    return [leaves()];
  };

  it('tab close: one $pageleave for the closed page, and every event captured just before arrives', async () => {
    env.site.collector.clear();
    env.site.server.page('/leave.html', sdkPage(env.site.collector.url, PAGELEAVE));
    const context = await env.browser.newContext();
    const first = await openPage(context);
    const leftUrl = env.site.server.url + '/leave.html?tab=closed';
    await first.page.goto(leftUrl);
    await captureRange(first.page, 'close leave', 0, 100);
    await first.page.close({ runBeforeUnload: true });

    // The next page of the origin sends whatever could not leave with the closed tab; once its own
    // last event arrived, anything the closed tab still held has been sent.
    const next = await openPage(context, first.errors);
    await next.page.goto(env.site.server.url + '/leave.html?tab=next');
    await captureRange(next.page, 'close sentinel', 0, 1);
    const seen = await waitForIndexes(env.site.collector, 'close leave', 100, 30_000);
    expect(problems(seen, 100)).toEqual({ missing: [], reissued: [] });
    expect(await env.site.collector.waitForDistinct('close sentinel', 1, 10_000)).toBe(1);
    expect(await leavesOf(leftUrl, 1)).toEqual([1]);
    expect(first.errors).toEqual([]);
    await context.close();
  });

  it('two reloads: one $pageleave per left load, and every event captured before each reload arrives', async () => {
    env.site.collector.clear();
    env.site.server.page('/reload-leave.html', sdkPage(env.site.collector.url, PAGELEAVE));
    const context = await env.browser.newContext();
    const { page, errors } = await openPage(context);
    const url = env.site.server.url + '/reload-leave.html';
    await page.goto(url);
    await captureRange(page, 'reload leave', 0, 50);
    await page.reload();
    await captureRange(page, 'reload leave', 50, 100);
    await page.reload();
    await captureRange(page, 'reload sentinel', 0, 1);

    const seen = await waitForIndexes(env.site.collector, 'reload leave', 100, 30_000);
    expect(problems(seen, 100)).toEqual({ missing: [], reissued: [] });
    expect(await env.site.collector.waitForDistinct('reload sentinel', 1, 10_000)).toBe(1);
    // Two loads were left (the third is still open), both at the same URL.
    expect(await leavesOf(url, 2)).toEqual([2]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
