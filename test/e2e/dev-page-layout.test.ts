// `hogtail dev`'s page in real Chromium, as a person uses it: screenshots at 1280, 390 and 360 px
// (written under test-output/dev-page/, whose path the test prints) with no sideways scrolling on a
// phone, event names in view and the flag tables whole beside the events; people and groups counted
// apart; flags per user paged; a flagged invalid-UTF-8 name; pause; and clear, which asks and keeps
// the files unless told.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevServer, type DevServer } from '../../src/devserver';
import { PostHog } from '../../src/node';
import { repoRoot } from '../support/built';
import { hasChromium, launchChromium, openPage } from './support/chromium';

const WAIT = { timeout: 30_000 };
const SHOTS = join(repoRoot, 'test-output', 'dev-page');

describe.skipIf(!hasChromium)('hogtail dev page: layout and controls', () => {
  let browser: Browser;
  let server: DevServer;
  let dataDir: string;
  let client: PostHog;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'hogtail-dev-layout-'));
    const flagsFile = join(dataDir, 'flags.json');
    const flags = [
      { key: 'new-checkout', rollout_percentage: 50 },
      {
        key: 'pricing-experiment',
        rollout_percentage: 100,
        variants: [
          { key: 'control', rollout_percentage: 50 },
          { key: 'annual-discount-banner', rollout_percentage: 50 },
        ],
      },
      { key: 'a-flag-with-a-rather-long-key-for-the-table', rollout_percentage: 100 },
    ];
    writeFileSync(flagsFile, JSON.stringify(flags));
    [browser, server] = await Promise.all([launchChromium(), startDevServer({ dataDir, flagsFile })]);
    client = new PostHog('phc_dev_layout_test', { host: server.url, flushAt: 50, flushOnExitTimeout: 0 });
    for (let user = 0; user < 30; user++) {
      const distinctId = `user-${String(user).padStart(2, '0')}@a-rather-long-company-domain.example.com`;
      client.identify({ distinctId, properties: { plan: user % 2 ? 'pro' : 'free' } });
      client.capture({
        distinctId,
        event: user % 3 ? 'checkout completed with a long event name' : '$pageview',
        properties: { $current_url: `https://shop.example.com/products/${user}?utm_source=newsletter&utm_campaign=spring` },
      });
    }
    client.groupIdentify({ groupType: 'company', groupKey: 'acme', properties: { name: 'Acme' } });
    client.groupIdentify({ groupType: 'company', groupKey: 'globex', properties: { name: 'Globex' } });
    await client.flush();
    await fetch(`${server.url}/batch/`, { method: 'POST', body: '{"api_key":"phc_x","batch":[{"event":"","distinct_id":"x"}]}' });
    mkdirSync(SHOTS, { recursive: true });
    console.log(`hogtail dev page screenshots: ${SHOTS}`);
  });
  afterAll(async () => {
    await client?.shutdown(5_000);
    await browser?.close();
    await server?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  async function openAt(width: number, height: number): Promise<{ page: Page; errors: string[] }> {
    const context = await browser.newContext({ viewport: { width, height } });
    const { page, errors } = await openPage(context);
    await page.goto(`${server.url}/`);
    await page.locator('#status[data-state="live"]').waitFor(WAIT);
    await page.locator('#events .name').first().waitFor(WAIT);
    await page.waitForFunction(() => document.getElementById('users-count')?.textContent !== '', undefined, WAIT);
    return { page, errors };
  }

  it.each([
    [1280, 900],
    [390, 844],
    [360, 740],
  ])('at %i px: screenshot written, no sideways scrolling, event names in view, flag tables not cut', async (width, height) => {
    const { page, errors } = await openAt(width, height);
    await page.locator('#events .row').first().click();
    await page.locator('#events .details').first().waitFor(WAIT);

    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const names = page.locator('#events .name');
    for (let index = 0; index < 3; index++) {
      const box = await names.nth(index).boundingBox();
      expect(box).not.toBeNull();
      // Wide enough to read a name, and inside the viewport.
      expect(box?.width ?? 0).toBeGreaterThan(width < 600 ? 150 : 200);
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(width);
      expect(await names.nth(index).isVisible()).toBe(true);
    }
    if (width >= 900) {
      // Beside the events, each flag table fits its panel: no column hidden behind a scroll.
      const cut = await page.evaluate(() =>
        ['flags', 'assignments'].map((id) => {
          const box = document.getElementById(id)!.parentElement!;
          return { id, hidden: box.scrollWidth - box.clientWidth, columns: document.querySelectorAll(`#${id} thead th`).length };
        }),
      );
      expect(cut).toEqual([
        { id: 'flags', hidden: 0, columns: 2 },
        { id: 'assignments', hidden: 0, columns: 4 },
      ]);
    }
    const file = join(SHOTS, `dev-page-${width}.png`);
    await page.screenshot({ path: file, fullPage: true });
    await page.screenshot({ path: join(SHOTS, `dev-page-${width}-first-screen.png`) });
    await page.locator('aside').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, `dev-page-${width}-panels.png`) });
    expect(existsSync(file)).toBe(true);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('counts people and groups apart, and pages through what each user got', async () => {
    const { page, errors } = await openAt(1440, 900);
    expect(await page.locator('#count-people').textContent()).toBe('30');
    expect(await page.locator('#count-groups').textContent()).toBe('2');
    expect(await page.locator('#users-count').textContent()).toBe('(30 users)');
    expect(await page.locator('#users-page').textContent()).toBe('1–25 of 30');
    expect(await page.locator('#assignments tbody tr').count()).toBe(25);
    await page.locator('#users-next').click();
    await page.locator('#users-page', { hasText: '26–30 of 30' }).waitFor(WAIT);
    expect(await page.locator('#assignments tbody tr').count()).toBe(5);
    expect(await page.locator('#users-next').isDisabled()).toBe(true);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('flags an event whose name was not valid UTF-8', async () => {
    const { page, errors } = await openAt(1440, 900);
    const body = Buffer.concat([
      Buffer.from('{"api_key":"phc_x","batch":[{"event":"caf'),
      Buffer.from([0xe9]),
      Buffer.from('","distinct_id":"latin1-user"}]}'),
    ]);
    expect((await fetch(`${server.url}/batch/`, { method: 'POST', body })).status).toBe(200);
    const row = page.locator('#events li.event.warn', { has: page.locator('.distinct', { hasText: 'latin1-user' }) });
    await row.waitFor(WAIT);
    await row.locator('.row').click();
    expect(await row.locator('.details .warning').textContent()).toBe('⚠ event name had bytes that are not UTF-8, shown as \uFFFD');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('pauses the list and shows what was held on resume', async () => {
    const { page, errors } = await openAt(1440, 900);
    await page.locator('#pause').click();
    client.capture({ distinctId: 'paused-user', event: 'while paused' });
    await client.flush();
    await page.locator('#paused-count', { hasText: '1' }).waitFor(WAIT);
    expect(await page.locator('#events .name', { hasText: 'while paused' }).count()).toBe(0);
    await page.locator('#resume').click();
    await page.locator('#events .name', { hasText: 'while paused' }).waitFor(WAIT);
    expect(await page.locator('#paused-note').isHidden()).toBe(true);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('clears only after asking, keeping the files unless told, then deleting them when told', async () => {
    const { page, errors } = await openAt(1440, 900);
    await page.locator('#clear').click();
    await page.locator('#clear-dialog').waitFor({ state: 'visible', ...WAIT });
    expect(await page.locator('#clear-dir').textContent()).toBe(dataDir);
    await page.screenshot({ path: join(SHOTS, 'dev-page-clear-dialog.png') });
    await page.locator('#clear-cancel').click();
    expect(await page.locator('#events li.event').count()).toBeGreaterThan(0);

    await page.locator('#clear').click();
    await page.locator('#clear-confirm').click();
    await page.waitForFunction(() => document.querySelectorAll('#events li.event').length === 0, undefined, WAIT);
    await page.locator('#count-events', { hasText: /^0$/ }).waitFor(WAIT);
    const eventFiles = () => readdirSync(dataDir).filter((name) => name.startsWith('events-'));
    expect(eventFiles()).toHaveLength(1);

    client.capture({ distinctId: 'after-clear', event: 'after clear' });
    await client.flush();
    await page.locator('#events .name', { hasText: 'after clear' }).waitFor(WAIT);

    await page.locator('#clear').click();
    await page.locator('#clear-files').check();
    await page.locator('#clear-confirm').click();
    await page.waitForFunction(() => document.querySelectorAll('#events li.event').length === 0, undefined, WAIT);
    expect(eventFiles()).toHaveLength(0);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
