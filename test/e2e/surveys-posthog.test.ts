// The scenarios of surveys.test.ts that posthog-js can run, against posthog-js itself in the same
// Chromium and the same `hogtail dev` surveys: a popover with an open-text and a rating question,
// answered, sends `survey shown` then `survey sent` with both responses under the same property
// names hogtail uses; a dismissed survey sends `survey dismissed` and is not shown after a reload.
// So hogtail's events and memory are posthog-js's, and a site can switch either way.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevServer, type DevServer } from '../../src/devserver';
import { repoRoot } from '../support/built';
import { hasChromium, launchChromium, openPage } from './support/chromium';
import { KEY } from './support/site';
import { startStaticServer, type StaticServer } from './support/static-server';
import { SURVEYS } from './support/surveys';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!hasChromium)('the same survey scenarios against posthog-js', () => {
  let browser: Browser;
  let server: StaticServer;
  let dev: DevServer;
  let dataDir: string;
  const events = (event: string, id: string) => dev.store.events().filter((e) => e.event === event && e.properties.$survey_id === id);
  const until = async <T>(read: () => T): Promise<T> => {
    for (const deadline = Date.now() + 15_000; ; await sleep(50)) {
      const value = read();
      if (value) return value;
      if (Date.now() > deadline) throw new Error('timed out');
    }
  };

  beforeAll(async () => {
    browser = await launchChromium();
    dataDir = mkdtempSync(join(tmpdir(), 'hogtail-posthog-surveys-'));
    dev = await startDevServer({ dataDir, surveys: SURVEYS, flags: [{ key: 'beta-on', rollout_percentage: 100 }] });
    server = await startStaticServer();
    // posthog-js's surveys file on the page, as its loader would bring it from its assets host.
    server.file('/surveys.js', repoRoot + 'node_modules/posthog-js/dist/surveys.js');
    server.file('/array.js', repoRoot + 'node_modules/posthog-js/dist/array.js');
    const config = {
      api_host: dev.url,
      capture_pageview: false,
      autocapture: false,
      disable_session_recording: true,
      opt_out_useragent_filter: true,
    };
    for (const path of ['/answer.html', '/dismiss.html']) {
      server.page(
        path,
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>posthog-js</title><script src="/surveys.js"></script><script src="/array.js"></script>
<script>posthog.init(${JSON.stringify(KEY)}, ${JSON.stringify(config)});</script></head><body><h1>Shop</h1></body></html>`,
      );
    }
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await dev?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const open = async (path: string): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> => {
    const context = await browser.newContext();
    const { page, errors } = await openPage(context);
    await page.goto(server.url + path);
    return { page, errors, close: () => context.close() };
  };

  it('answered: survey shown then survey sent with both responses, named as hogtail names them', async () => {
    const { page, errors, close } = await open('/answer.html');
    await page.getByRole('textbox').waitFor();
    await page.getByRole('textbox').fill('Faster checkout');
    await page
      .getByRole('button', { name: /submit/i })
      .first()
      .click();
    await page.getByRole('button', { name: 'Rate 4' }).click();
    await page
      .getByRole('button', { name: /submit/i })
      .first()
      .click();
    await until(() => events('survey sent', 'answer-me').length);
    expect(events('survey shown', 'answer-me')).toHaveLength(1);
    expect(events('survey sent', 'answer-me')[0]!.properties).toMatchObject({
      $survey_name: 'Checkout feedback',
      $survey_completed: true,
      '$survey_response_q-open': 'Faster checkout',
      '$survey_response_q-rate': 4,
      $survey_questions: [
        { id: 'q-open', question: 'What could we do better?', response: 'Faster checkout' },
        { id: 'q-rate', question: 'How likely are you to recommend us?', response: 4 },
      ],
      $set: { '$survey_responded/answer-me': true },
    });
    expect(errors).toEqual([]);
    await close();
  });

  it('dismissed: survey dismissed, and not shown again after a reload (the seenSurvey_ key hogtail reads too)', async () => {
    const { page, errors, close } = await open('/dismiss.html');
    await page.getByRole('button', { name: 'Close survey' }).first().click();
    await until(() => events('survey dismissed', 'dismiss-me').length);
    expect(events('survey dismissed', 'dismiss-me')[0]!.properties).toMatchObject({ $set: { '$survey_dismissed/dismiss-me': true } });
    expect(await page.evaluate(() => localStorage.getItem('seenSurvey_dismiss-me'))).toBe('true');
    await page.reload();
    const active = await page.evaluate(
      () =>
        new Promise<string[]>((resolve) =>
          (window as any).posthog.getActiveMatchingSurveys((s: { id: string }[]) => resolve(s.map((x) => x.id)), true),
        ),
    );
    expect(active).not.toContain('dismiss-me');
    expect(events('survey shown', 'dismiss-me')).toHaveLength(1);
    expect(errors).toEqual([]);
    await close();
  });
});
