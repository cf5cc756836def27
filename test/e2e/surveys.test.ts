// Surveys in real Chromium, from the built script tag and its surveys file, against a real
// collector that answers flags (with the remote config saying the project has surveys) and
// /api/surveys/: a popover with an open-text and a rating question answered with the keyboard and
// the mouse sends `survey shown` then `survey sent` with both responses; Escape dismisses it (and
// focus goes back where it was), `survey dismissed` is sent and the survey is not shown again after
// a reload; a survey whose URL condition does not match, or whose linked flag is off, is not shown;
// with `disable_surveys` neither the file nor the definitions are fetched.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultDecideResponse } from '../../src/devserver';
import { repoRoot } from '../support/built';
import { ensureBrowserBuild } from './support/build';
import { hasChromium, launchChromium, openPage } from './support/chromium';
import { startRecordingCollector, type RecordingCollector } from './support/recording-collector';
import { KEY } from './support/site';
import { startStaticServer, type StaticServer } from './support/static-server';
import { SURVEYS } from './support/surveys';
import { until } from './support/until';

/** The focused element inside the survey's shadow root (the page sees only the host). */
const focusedInSurvey = () => {
  const host = document.activeElement as HTMLElement | null;
  const inner = host?.shadowRoot?.activeElement;
  return inner ? `${inner.tagName.toLowerCase()}${inner.textContent ? ':' + inner.textContent : ''}` : '';
};

/** Resolves once the surveys extension has loaded the definitions (onSurveysLoaded waits for it). */
const surveysLoaded = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<string[]>((resolve) =>
        (window as any).hogtail.onSurveysLoaded((surveys: { id: string }[]) => resolve(surveys.map((s) => s.id))),
      ),
  );

const activeIds = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<string[]>((resolve) =>
        (window as any).hogtail.getActiveMatchingSurveys((surveys: { id: string }[]) => resolve(surveys.map((s) => s.id))),
      ),
  );

describe.skipIf(!hasChromium)('surveys in Chromium', () => {
  let browser: Browser;
  let server: StaticServer;
  let collector: RecordingCollector;

  const page = (path: string, config: Record<string, unknown> = {}, body = '') =>
    server.page(
      path,
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Surveys</title><script src="/hogtail.iife.js"></script>
<script>hogtail.init(${JSON.stringify(KEY)}, ${JSON.stringify({ api_host: collector.url, capture_pageview: false, autocapture: false, flush_at: 1, ...config })});</script>
</head><body><main><h1>Shop</h1>${body}</main></body></html>`,
    );
  const fresh = async (): Promise<{ context: BrowserContext; page: Page; errors: string[]; requested: string[] }> => {
    const context = await browser.newContext();
    const watched = await openPage(context);
    const requested: string[] = [];
    watched.page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    return { context, ...watched, requested };
  };
  const sent = (event: string, id: string) => collector.events.filter((e) => e.event === event && e.properties.$survey_id === id);

  beforeAll(async () => {
    const [iife] = await Promise.all([ensureBrowserBuild(), launchChromium().then((b) => (browser = b))]);
    server = await startStaticServer();
    server.file('/hogtail.iife.js', iife);
    server.file('/hogtail.surveys.js', repoRoot + 'dist/hogtail.surveys.js');
    collector = await startRecordingCollector({
      decide: () => ({ ...defaultDecideResponse(), surveys: true, featureFlags: { 'beta-on': true, 'beta-off': false } }),
      surveys: () => SURVEYS,
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await collector?.close();
  });

  it('a popover with an open-text and a rating question, answered with the keyboard and the mouse, sends shown then sent with both responses', async () => {
    page('/answer.html');
    const { context, page: tab, errors } = await fresh();
    await tab.goto(server.url + '/answer.html');
    await tab.getByRole('dialog', { name: 'What could we do better?' }).waitFor();
    // Focus moved into the survey: the person types at once.
    expect(await until(tab, focusedInSurvey, 'focus in the survey')).toBe('textarea');
    await tab.keyboard.type('Faster checkout');
    await tab.keyboard.press('Tab');
    expect(await tab.evaluate(focusedInSurvey)).toBe('button:Submit');
    await tab.keyboard.press('Enter');

    await tab.getByRole('dialog', { name: 'How likely are you to recommend us?' }).waitFor();
    expect(await tab.evaluate(focusedInSurvey)).toBe('input');
    await tab.getByRole('radio', { name: '4' }).click();
    await tab.getByRole('button', { name: 'Submit' }).click();
    await tab.getByText('Thanks a lot!').waitFor();
    await tab.keyboard.press('Enter'); // the thank-you's Close button has the focus
    await until(tab, () => !document.querySelector('.hogtail-survey'), 'the survey closed');

    await collector.waitUntil(() => sent('survey sent', 'answer-me').length, 10_000);
    const names = collector.events.filter((e) => e.properties.$survey_id === 'answer-me').map((e) => e.event);
    expect(names).toEqual(['survey shown', 'survey sent']);
    expect(sent('survey sent', 'answer-me')[0]!.properties).toMatchObject({
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
    // posthog-js's page renderer no longer sends the older `$survey_response` / `$survey_response_<index>`: neither does hogtail.
    expect(sent('survey sent', 'answer-me')[0]!.properties).not.toHaveProperty('$survey_response');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('Escape dismisses, focus goes back, survey dismissed is sent, and the survey is not shown again after a reload', async () => {
    page('/dismiss.html', {}, '<button id="before">Before</button><script>document.getElementById("before").focus()</script>');
    const { context, page: tab, errors } = await fresh();
    await tab.goto(server.url + '/dismiss.html');
    await tab.getByRole('dialog').waitFor();
    expect(await until(tab, focusedInSurvey, 'focus in the survey')).toBe('textarea');
    await tab.keyboard.press('Escape');
    await until(tab, () => !document.querySelector('.hogtail-survey'), 'the survey closed');
    expect(await tab.evaluate(() => document.activeElement?.id)).toBe('before');
    await collector.waitUntil(() => sent('survey dismissed', 'dismiss-me').length, 10_000);
    expect(sent('survey dismissed', 'dismiss-me')[0]!.properties).toMatchObject({
      $survey_name: 'Dismissable',
      $survey_partially_completed: false,
      $set: { '$survey_dismissed/dismiss-me': true },
    });

    await tab.reload();
    expect(await surveysLoaded(tab)).toContain('dismiss-me');
    expect(await activeIds(tab)).toEqual([]);
    expect(await tab.evaluate(() => (window as any).hogtail.canRenderSurvey('dismiss-me'))).toEqual({
      visible: false,
      disabledReason: 'it was seen already on this device',
    });
    expect(await tab.evaluate(() => document.querySelectorAll('.hogtail-survey').length)).toBe(0);
    expect(sent('survey shown', 'dismiss-me')).toHaveLength(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a survey whose URL condition does not match, or whose linked flag is off, is not shown; one whose flag is on is', async () => {
    page('/flags.html');
    const { context, page: tab, errors } = await fresh();
    await tab.goto(server.url + '/flags.html');
    await tab.getByRole('dialog').waitFor();
    expect(await tab.evaluate(() => document.querySelector('.hogtail-survey')?.getAttribute('data-survey-id'))).toBe('flag-on');
    expect(await activeIds(tab)).toEqual(['flag-on']);
    const reasons = await tab.evaluate(() => ['wrong-url', 'flag-off'].map((id) => (window as any).hogtail.canRenderSurvey(id)));
    expect(reasons).toEqual([
      { visible: true }, // eligible: only its page condition (the URL) keeps it off this page
      { visible: false, disabledReason: 'the linked flag beta-off is not enabled' },
    ]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('opted out of capturing: no survey is shown, since no answer could be recorded', async () => {
    page('/opted-out/flags.html', { opt_out_capturing_by_default: true });
    const { context, page: tab, errors } = await fresh();
    await tab.goto(server.url + '/opted-out/flags.html');
    await surveysLoaded(tab);
    expect(await tab.evaluate(() => (window as any).hogtail.canRenderSurvey('flag-on'))).toEqual({
      visible: false,
      disabledReason: 'capturing is opted out, so an answer could not be recorded',
    });
    // The page's check has run by now (it ran when the definitions loaded): nothing on screen.
    expect(await tab.evaluate(() => document.querySelectorAll('.hogtail-survey').length)).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('partial responses: survey sent after each question, the last completed, one submission id', async () => {
    page('/partial.html');
    const { context, page: tab, errors } = await fresh();
    await tab.goto(server.url + '/partial.html');
    await tab.getByRole('textbox', { name: 'What could we do better?' }).fill('First');
    await tab.getByRole('button', { name: 'Submit' }).click();
    await tab.getByRole('textbox', { name: 'Anything else?' }).fill('Second');
    await tab.getByRole('button', { name: 'Submit' }).click();
    await collector.waitUntil(() => sent('survey sent', 'partial').length >= 2, 10_000);
    const [first, last] = sent('survey sent', 'partial').map((e) => e.properties);
    expect(first).toMatchObject({ $survey_completed: false, '$survey_response_q-p1': 'First' });
    expect(first).not.toHaveProperty('$survey_response_q-p2');
    expect(last).toMatchObject({ $survey_completed: true, '$survey_response_q-p1': 'First', '$survey_response_q-p2': 'Second' });
    expect(last!.$survey_submission_id).toBe(first!.$survey_submission_id);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('an event trigger: not shown until the event is captured with the filtered property', async () => {
    page('/trigger.html');
    const { context, page: tab, errors } = await fresh();
    await tab.goto(server.url + '/trigger.html');
    await surveysLoaded(tab);
    expect(await activeIds(tab)).toEqual([]);
    await tab.evaluate(() => (window as any).hogtail.capture('checkout', { plan: 'free' }));
    expect(await tab.evaluate(() => (window as any).hogtail.canRenderSurvey('on-event'))).toEqual({
      visible: false,
      disabledReason: 'its trigger event has not been captured yet',
    });
    await tab.evaluate(() => (window as any).hogtail.capture('checkout', { plan: 'pro' }));
    await tab.getByRole('dialog', { name: 'What could we do better?' }).waitFor();
    expect(await tab.evaluate(() => document.querySelector('.hogtail-survey')?.getAttribute('data-survey-id'))).toBe('on-event');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('disable_surveys: neither the surveys file nor the definitions are fetched (without it, both are)', async () => {
    const flagsHeard = (tab: Page) =>
      tab.evaluate(() => new Promise<void>((resolve) => (window as any).hogtail.onFeatureFlags(() => resolve())));
    page('/off.html', { disable_surveys: true });
    const off = await fresh();
    await off.page.goto(server.url + '/off.html');
    await flagsHeard(off.page);
    expect(await off.page.evaluate(() => document.querySelector('script[src$="hogtail.surveys.js"]'))).toBeNull();
    expect(off.requested.filter((path) => path.includes('surveys'))).toEqual([]);
    await off.context.close();

    page('/on.html');
    const on = await fresh();
    await on.page.goto(server.url + '/on.html');
    await surveysLoaded(on.page);
    expect(on.requested.filter((path) => path.includes('surveys'))).toEqual(['/hogtail.surveys.js', '/api/surveys/']);
    expect([...off.errors, ...on.errors]).toEqual([]);
    await on.context.close();
  });
});
