// `hogtail dev`'s page in real Chromium: events from the Node SDK appear live and open into a
// properties table (by mouse or keyboard), everything received renders as text, the search runs on
// the server over every stored event, and the side panels show flags and rejections. Conditions are
// awaited, never timed.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevServer, type DevServer } from '../../src/devserver';
import { PostHog } from '../../src/node';
import { hasChromium, launchChromium, openPage } from './support/chromium';

const XSS_NAME = '<img src=x onerror=alert(1)>';
const WAIT = { timeout: 30_000 };

describe.skipIf(!hasChromium)('hogtail dev page', () => {
  let browser: Browser;
  let server: DevServer;
  let dataDir: string;
  let client: PostHog;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'hogtail-dev-page-'));
    const flagsFile = join(dataDir, 'flags.json');
    writeFileSync(flagsFile, JSON.stringify([{ key: 'new-checkout', rollout_percentage: 100, payloads: { true: { color: 'green' } } }]));
    [browser, server] = await Promise.all([launchChromium(), startDevServer({ dataDir, flagsFile })]);
    client = new PostHog('phc_dev_page_test', { host: server.url, flushAt: 1, flushOnExitTimeout: 0 });
  });
  afterAll(async () => {
    await client?.shutdown(5_000);
    await browser?.close();
    await server?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const openDevPage = () => openPageOf(server);
  async function openPageOf(target: DevServer): Promise<{ page: Page; errors: string[]; dialogs: string[] }> {
    const context = await browser.newContext();
    const { page, errors } = await openPage(context);
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(`${target.url}/`);
    await page.locator('#status[data-state="live"]').waitFor(WAIT);
    return { page, errors, dialogs };
  }

  it('shows an event captured by the Node SDK as it arrives, opening into a properties table with raw JSON a click away', async () => {
    const { page, errors } = await openDevPage();

    client.capture({ distinctId: 'ada@example.com', event: 'signed up', properties: { plan: 'pro', referrer: 'dev-page-test' } });
    await client.flush();

    const row = page.locator('#events li.event', { has: page.locator('.name', { hasText: 'signed up' }) });
    await row.waitFor(WAIT);
    expect(await row.locator('.distinct').textContent()).toBe('ada@example.com');
    expect(await row.locator('.lib').textContent()).toBe('hogtail-node');
    // How long ago, with the local time, its date and the zone spelled out on hover.
    expect(await row.locator('.time').textContent()).toMatch(/^(just now|\d+ s ago)$/);
    expect(await row.locator('.time').getAttribute('title')).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC[+-]\d{2}:\d{2}$/);

    await row.locator('.row').click();
    const plan = row.locator('.details tr', { has: page.locator('td.key', { hasText: /^plan$/ }) });
    await plan.waitFor(WAIT);
    expect(await plan.locator('td').nth(1).textContent()).toBe('pro');
    expect(await row.locator('pre.props').isVisible()).toBe(false);

    await row.locator('.raw-toggle').click();
    const raw = row.locator('pre.props');
    await raw.waitFor({ state: 'visible', ...WAIT });
    const shown = JSON.parse((await raw.textContent()) ?? '{}') as { properties: Record<string, unknown> };
    expect(shown.properties).toMatchObject({ plan: 'pro', referrer: 'dev-page-test' });

    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('shows per row where it happened, which library sent it and who, with times that keep counting', async () => {
    const { page, errors } = await openDevPage();
    const anonymous = ['0193a8c2-7f1e-7c3a-9b2d-4e0a11aa0001', '0193a8c2-7f1e-7c3a-9b2d-4e0a11aa0002'];
    const minuteAgo = new Date(Date.now() - 65_000).toISOString();
    const batch = [
      {
        event: '$pageview',
        distinct_id: anonymous[0],
        properties: { $lib: 'web', $lib_version: '1.200.0', $current_url: 'https://shop.example.com/pricing?plan=pro' },
      },
      {
        event: '$pageview',
        distinct_id: anonymous[1],
        timestamp: minuteAgo,
        properties: { $lib: 'web', $current_url: 'https://shop.example.com/pricing?plan=pro' },
      },
      { event: '$screen', distinct_id: 'ios-user', properties: { $lib: 'posthog-ios', $screen_name: 'CheckoutViewController' } },
    ];
    expect((await fetch(`${server.url}/batch/`, { method: 'POST', body: JSON.stringify({ api_key: 'phc_rows', batch }) })).status).toBe(
      200,
    );

    const rowOf = (id: string) => page.locator('#events li.event', { has: page.locator('.distinct', { hasText: id }) });
    await rowOf('ios-user').waitFor(WAIT);
    const first = rowOf(anonymous[0]!);
    expect(await first.locator('.place').textContent()).toBe('shop.example.com/pricing?plan=pro');
    expect(await first.locator('.lib').textContent()).toBe('web');
    expect(await first.locator('.lib').getAttribute('title')).toBe('web 1.200.0');
    expect(await rowOf('ios-user').locator('.place').textContent()).toBe('CheckoutViewController');
    expect(await rowOf('ios-user').locator('.lib').textContent()).toBe('posthog-ios');

    // Two anonymous ids that differ only at the end: the end is always shown, the colours differ.
    const person = async (id: string) =>
      rowOf(id)
        .locator('.distinct')
        .evaluate((node) => ({
          tail: node.querySelector('.tail')?.textContent,
          tailVisible: (node.querySelector('.tail')?.getBoundingClientRect().width ?? 0) > 0,
          colour: getComputedStyle(node.querySelector('.dot')!).backgroundColor,
          title: (node as HTMLElement).title,
        }));
    const [a, b] = [await person(anonymous[0]!), await person(anonymous[1]!)];
    expect([a.tail, b.tail]).toEqual(['aa0001', 'aa0002']);
    expect(a.tailVisible && b.tailVisible).toBe(true);
    expect(a.colour).not.toBe(b.colour);
    expect(a.title).toBe(anonymous[0]);

    // The event's own timestamp, as a relative time that the page keeps current.
    await rowOf(anonymous[1]!)
      .locator('.time', { hasText: /^1 min ago$/ })
      .waitFor(WAIT);
    const seq = await rowOf(anonymous[0]!).getAttribute('data-seq');
    const before = await rowOf(anonymous[0]!).locator('.time').textContent();
    await page.waitForFunction(
      ([at, seen]) => document.querySelector(`#events li.event[data-seq="${at}"] .time`)?.textContent !== seen,
      [seq, before] as const,
      WAIT,
    );
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('says how many events of a flood it leaves out of the list', async () => {
    const { page, errors } = await openDevPage();
    const flood = Array.from({ length: 1_200 }, (_, index) => ({ event: 'flood', distinct_id: `flood-${index}`, properties: { index } }));
    expect(
      (await fetch(`${server.url}/batch/`, { method: 'POST', body: JSON.stringify({ api_key: 'phc_flood', batch: flood }) })).status,
    ).toBe(200);
    await page.locator('#skipped-note', { hasText: /^700 events arrived faster than this list shows them/ }).waitFor(WAIT);
    await page.locator('#events .distinct', { hasText: /^flood-1199$/ }).waitFor(WAIT);
    expect(await page.locator('#events .distinct', { hasText: /^flood-699$/ }).count()).toBe(0);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("shows three snippets with this server's address and a key while nothing has arrived, as text", async () => {
    const emptyDir = mkdtempSync(join(tmpdir(), 'hogtail-dev-page-empty-'));
    const empty = await startDevServer({ dataDir: emptyDir });
    try {
      const { page, errors } = await openPageOf(empty);
      const snippets = page.locator('#empty');
      await snippets.waitFor({ state: 'visible', ...WAIT });
      const texts = await page.locator('#empty pre').allTextContents();
      expect(texts).toHaveLength(3);
      expect(texts[0]).toContain('<script src="https://unpkg.com/hogtail/dist/hogtail.iife.js"></script>');
      expect(texts[0]).toContain(`hogtail.init('phc_hogtail_dev', { api_host: '${empty.url}' });`);
      expect(texts[1]).toContain(`posthog.init('phc_hogtail_dev', { api_host: '${empty.url}' });`);
      expect(texts[2]).toContain(`new PostHog('phc_hogtail_dev', { host: '${empty.url}' });`);
      expect(await page.locator('#empty button', { hasText: 'Copy' }).count()).toBe(3);
      // The markup in the snippets is text: no element came of it.
      expect(await page.locator('#empty script').count()).toBe(0);

      // Pasted as shown, the Node snippet's settings send an event to this server.
      const pasted = new PostHog('phc_hogtail_dev', { host: empty.url, flushOnExitTimeout: 0 });
      pasted.capture({ distinctId: 'user-1', event: 'hello from node' });
      await pasted.shutdown(5_000);
      await page.locator('#events .name', { hasText: 'hello from node' }).waitFor(WAIT);
      expect(await snippets.isHidden()).toBe(true);
      expect(errors).toEqual([]);
      await page.context().close();
    } finally {
      await empty.close();
      rmSync(emptyDir, { recursive: true, force: true });
    }
  });

  it('renders an event named like markup as text: no element, no dialog', async () => {
    const { page, errors, dialogs } = await openDevPage();

    client.capture({ distinctId: '"><script>alert(2)</script>', event: XSS_NAME, properties: { html: '<b onmouseover=alert(3)>x</b>' } });
    await client.flush();

    const name = page.locator('#events .name', { hasText: XSS_NAME });
    await name.waitFor(WAIT);
    expect(await name.textContent()).toBe(XSS_NAME);
    expect(await name.isVisible()).toBe(true);
    // `has` takes a locator relative to the row, so it names .name without the #events prefix.
    const row = page.locator('#events li.event', { has: page.locator('.name', { hasText: XSS_NAME }) });
    expect(await row.locator('.distinct').textContent()).toBe('"><script>alert(2)</script>');

    await row.locator('.row').click();
    await page.locator('#events .details td', { hasText: '<b onmouseover=alert(3)>x</b>' }).waitFor(WAIT);
    await row.locator('.raw-toggle').click();
    await page.locator('#events pre.props', { hasText: '<b onmouseover=alert(3)>x</b>' }).waitFor(WAIT);

    // Nothing the client sent became an element.
    expect(await page.locator('#events img, #events script, #events b').count()).toBe(0);
    expect(await page.evaluate(() => document.querySelectorAll('img').length)).toBe(0);
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('opens an event from the keyboard: Tab to it, Enter, Tab to the raw JSON, Enter', async () => {
    client.capture({ distinctId: 'keyboard-user', event: 'keyboard event', properties: { via: 'keys' } });
    await client.flush();
    const { page, errors } = await openDevPage();
    await page.locator('#events .name', { hasText: 'keyboard event' }).waitFor(WAIT);

    await page.locator('#search').focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.querySelector('.name')?.textContent)).toBe('keyboard event');
    await page.keyboard.press('Enter');
    await page.locator('#events li.event .details td', { hasText: 'keys' }).waitFor(WAIT);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('raw-toggle');
    await page.keyboard.press('Enter');
    await page.locator('#events pre.props', { hasText: '"via": "keys"' }).waitFor({ state: 'visible', ...WAIT });

    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('searches every stored event on the server, by name, distinct id or property value, with paging', async () => {
    // The first of 650 events: far outside the 500 the page loads at start.
    client.capture({ distinctId: 'early-bird', event: 'needle early', properties: { note: 'haystack-777' } });
    for (let index = 0; index < 649; index++) client.capture({ distinctId: `bulk-${index}`, event: 'bulk event', properties: { index } });
    await client.flush();
    const { page, errors } = await openDevPage();
    await page.locator('#events .name', { hasText: 'bulk event' }).first().waitFor(WAIT);
    expect(await page.locator('#events .name', { hasText: 'needle early' }).count()).toBe(0);

    for (const term of ['NEEDLE', 'early-bird', 'haystack-777']) {
      await page.locator('#search').fill(term);
      await waitForNames(page, ['needle early']);
      await page.locator('#search-status', { hasText: /^1 event match/ }).waitFor(WAIT);
    }

    await page.locator('#search').fill('bulk event');
    await page.locator('#search-status', { hasText: /^649 events match "bulk event"/ }).waitFor(WAIT);
    await page.waitForFunction(() => document.querySelectorAll('#events li.event').length === 100, undefined, WAIT);
    await page.locator('#older').click();
    await page.waitForFunction(() => document.querySelectorAll('#events li.event').length === 200, undefined, WAIT);
    const seqs = await page.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLElement>('#events li.event'), (node) => Number(node.dataset.seq)),
    );
    expect(new Set(seqs).size).toBe(200);
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a));

    // Without a search the list is the live tail (the last 500); older events are a click away.
    await page.locator('#search').fill('');
    await page.waitForFunction(() => document.querySelectorAll('#events li.event').length === 500, undefined, WAIT);
    await page.locator('#older').click();
    await page.waitForFunction(() => document.querySelectorAll('#events li.event').length === 600, undefined, WAIT);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('shows what each user got from decide, and each rejected request with its time, path, reason and body', async () => {
    const { page, errors } = await openDevPage();

    expect(await client.getFeatureFlag('new-checkout', 'flag-user')).toBe(true);
    const bad = await fetch(`${server.url}/batch/`, {
      method: 'POST',
      headers: { 'User-Agent': 'my-app/1.0' },
      body: JSON.stringify({ api_key: 'phc_x', batch: [{ event: '', distinct_id: 'x' }] }),
    });
    expect(bad.status).toBe(400);

    await page.locator('#flags td', { hasText: 'new-checkout' }).waitFor(WAIT);
    const userRow = page.locator('#assignments tr', { has: page.locator('td', { hasText: 'flag-user' }) });
    await userRow.waitFor(WAIT);
    expect(await userRow.locator('td').nth(1).textContent()).toBe('true');

    await page.locator('#rejections td', { hasText: 'event at index 0: event name is empty' }).waitFor(WAIT);
    const rejection = page.locator('#rejection-list li', { hasText: 'event at index 0: event name is empty' });
    expect(await rejection.textContent()).toMatch(/^(just now|\d+ s ago) 400 POST \/batch\//);
    expect(await rejection.locator('time').getAttribute('title')).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC[+-]\d{2}:\d{2}$/);
    expect(await rejection.locator('.sender').textContent()).toBe('from my-app/1.0');
    expect(await rejection.locator('pre.sample').textContent()).toBe('{"api_key":"phc_x","batch":[{"event":"","distinct_id":"x"}]}');
    await page.waitForFunction(() => Number(document.getElementById('count-rejected')?.textContent) >= 1, undefined, WAIT);

    expect(errors).toEqual([]);
    await page.context().close();
  });
});

async function waitForNames(page: Page, expected: string[]): Promise<void> {
  await page.waitForFunction(
    (names) => {
      const shown = Array.from(document.querySelectorAll('#events .name'), (node) => node.textContent);
      return JSON.stringify(shown) === JSON.stringify(names);
    },
    expected,
    WAIT,
  );
}
